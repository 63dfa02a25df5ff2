// The turn reducer: submit → turn → events → result, retry in place, stream cut off or stopped, feedback, stored turns.
import { describe, expect, it } from "vitest";
import type { TurnDto } from "@/lib/api/contract";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";
import { isActive, shownAttempt, turnFromDto, turnsReducer, type ClientTurn } from "./turn-state";

const result: TurnResult = {
  answer: { kind: "items", items: [{ type: "uri", value: "http://x/Rowling", label: "J. K. Rowling" }] },
  source: "kg",
  sparql: ["SELECT ?a WHERE { ?s ?p ?a }"],
  stats: { ms: 10, llmCalls: 2, tokensIn: 1, tokensOut: 1, queries: 1, stageMs: {} },
};
const ev: DerivationEvent = { type: "stage-start", stage: "chat", at: 1 };

function submitted(): ClientTurn[] {
  return turnsReducer([], { type: "submit", key: "k1", question: "Who?", kgId: "sample" });
}

describe("turnsReducer", () => {
  it("runs a turn from submit to result", () => {
    let s = submitted();
    expect(s).toHaveLength(1);
    expect(s[0]).toMatchObject({ key: "k1", index: 0, status: "pending", kgId: "sample", events: [] });
    expect(isActive(s[0])).toBe(true);
    s = turnsReducer(s, { type: "turn", key: "k1", data: { conversationId: "c", turnId: "t1", index: 0, question: "Who?", newConversation: true, title: "Who?" } });
    expect(s[0]).toMatchObject({ turnId: "t1", status: "running" });
    s = turnsReducer(s, { type: "event", key: "k1", event: ev });
    s = turnsReducer(s, { type: "event", key: "k1", event: { ...ev, stage: "qir" } });
    expect(s[0].events.map((e) => e.stage)).toEqual(["chat", "qir"]);
    s = turnsReducer(s, { type: "result", key: "k1", data: { turnId: "t1", status: "done", result } });
    expect(s[0].status).toBe("done");
    expect(s[0].result?.answer).toEqual(result.answer);
    expect(isActive(s[0])).toBe(false);
    // a late "ended" does not undo a finished turn
    expect(turnsReducer(s, { type: "ended", key: "k1", aborted: false })[0].status).toBe("done");
  });

  it("does not mutate the previous state and leaves other turns alone", () => {
    const s1 = turnsReducer(submitted(), { type: "submit", key: "k2", question: "And?", kgId: "sample" });
    const frozen = JSON.stringify(s1);
    const s2 = turnsReducer(s1, { type: "event", key: "k2", event: ev });
    expect(JSON.stringify(s1)).toBe(frozen);
    expect(s2[0]).toBe(s1[0]);
    expect(s2[1].events).toHaveLength(1);
    expect(s2[1].index).toBe(1);
  });

  it("marks a stopped stream interrupted and a cut-off one failed, keeping an error already received", () => {
    const stopped = turnsReducer(submitted(), { type: "ended", key: "k1", aborted: true })[0];
    expect(stopped).toMatchObject({ status: "interrupted", error: { code: "aborted" } });
    const cut = turnsReducer(submitted(), { type: "ended", key: "k1", aborted: false })[0];
    expect(cut).toMatchObject({ status: "failed", error: { code: "stream_error" } });
    let s = turnsReducer(submitted(), { type: "error", key: "k1", error: { code: "kg_timeout", message: "slow", stage: "execution" } });
    s = turnsReducer(s, { type: "ended", key: "k1", aborted: false });
    expect(s[0]).toMatchObject({ status: "failed", error: { code: "kg_timeout", stage: "execution" } });
  });

  it("retries a turn in place: old trace, result and error are cleared", () => {
    let s = turnsReducer(submitted(), { type: "turn", key: "k1", data: { conversationId: "c", turnId: "t1", index: 0, question: "Who?", newConversation: true, title: "Who?" } });
    s = turnsReducer(s, { type: "event", key: "k1", event: ev });
    s = turnsReducer(s, { type: "result", key: "k1", data: { turnId: "t1", status: "failed", result: { ...result, error: { code: "x", message: "boom" } } } });
    expect(s[0].error?.message).toBe("boom");
    s = turnsReducer(s, { type: "retry", turnId: "t1" });
    expect(s[0]).toMatchObject({ status: "pending", events: [], result: undefined, error: undefined, key: "k1" });
  });

  it("sets and clears feedback by turn id", () => {
    let s = turnsReducer(submitted(), { type: "turn", key: "k1", data: { conversationId: "c", turnId: "t1", index: 0, question: "Who?", newConversation: true, title: "Who?" } });
    s = turnsReducer(s, { type: "feedback", turnId: "t1", feedback: 1 });
    expect(s[0].feedback).toBe(1);
    s = turnsReducer(s, { type: "feedback", turnId: "other", feedback: -1 });
    expect(s[0].feedback).toBe(1);
    expect(turnsReducer(s, { type: "feedback", turnId: "t1", feedback: null })[0].feedback).toBeNull();
  });
});

describe("turnFromDto", () => {
  const dto: TurnDto = {
    id: "t9",
    conversationId: "c",
    index: 3,
    question: "When?",
    status: "done",
    answer: { kind: "count", count: 7 },
    naturalAnswer: "Seven.",
    source: "kg",
    standaloneQuestion: "When was X?",
    error: null,
    trace: [ev],
    stats: result.stats,
    // as the turn runner stores it: the pipeline config, the KG and the model
    config: { strategy: "triad", kg: { id: "upload-1", name: "Birds" }, llm: { provider: "openai-compatible", model: "mock-7b" } },
    sparql: ["ASK {}"],
    feedback: -1,
    createdAt: "2025-01-01T00:00:00Z",
    finishedAt: "2025-01-01T00:00:01Z",
    attempt: 1,
    change: null,
    attempts: [],
  };

  it("rebuilds the result and keeps the KG, strategy and model the turn ran with", () => {
    const t = turnFromDto(dto, "sample");
    expect(t).toMatchObject({ key: "t9", turnId: "t9", index: 3, kgId: "upload-1", status: "done", feedback: -1, events: [ev] });
    // what the turn says it came from
    expect(t).toMatchObject({ kgName: "Birds", model: "mock-7b", strategy: "triad" });
    expect(t.result).toMatchObject({ answer: { kind: "count", count: 7 }, naturalAnswer: "Seven.", standaloneQuestion: "When was X?", sparql: ["ASK {}"] });
  });

  it("falls back to the conversation's KG and has no result for a turn that never finished", () => {
    const t = turnFromDto({ ...dto, status: "interrupted", answer: null, stats: null, config: {} }, "sample");
    expect(t.kgId).toBe("sample");
    expect(t.result).toBeUndefined();
  });
});

describe("attempts (a turn re-run after a correction)", () => {
  const start = { conversationId: "c", turnId: "t1", index: 0, question: "Who?", newConversation: true, title: "Who?" };
  const change = { baseAttempt: 1, correction: { kind: "vertex" as const, mention: "X", iri: "http://x/X2" } };
  function answered(): ClientTurn[] {
    let s = turnsReducer(submitted(), { type: "turn", key: "k1", data: start });
    s = turnsReducer(s, { type: "event", key: "k1", event: ev });
    return turnsReducer(s, { type: "result", key: "k1", data: { turnId: "t1", status: "done", result } });
  }

  it("keeps the first attempt when the re-run's attempt starts, and shows the new one as it streams", () => {
    let s = turnsReducer(answered(), { type: "rerun-start", key: "k1" });
    expect(s[0]).toMatchObject({ rerunning: true, status: "done", attempt: 1 });
    s = turnsReducer(s, { type: "turn", key: "k1", data: { ...start, newConversation: false, attempt: 2, change } });
    expect(s[0]).toMatchObject({ status: "running", attempt: 2, change, events: [], result: undefined, rerunning: false });
    expect(s[0].attempts).toEqual([{ attempt: 1, change: null, status: "done", events: [ev], result, error: undefined }]);
    const count = { ...result, answer: { kind: "count" as const, count: 3 } };
    s = turnsReducer(s, { type: "result", key: "k1", data: { turnId: "t1", status: "done", result: count } });
    expect(shownAttempt(s[0])).toMatchObject({ attempt: 2, latest: true, result: count });
    // the first attempt is one click away, and back
    s = turnsReducer(s, { type: "show-attempt", key: "k1", attempt: 1 });
    expect(shownAttempt(s[0])).toMatchObject({ attempt: 1, latest: false, result });
    s = turnsReducer(s, { type: "show-attempt", key: "k1", attempt: 2 });
    expect(shownAttempt(s[0])).toMatchObject({ attempt: 2, latest: true });
  });

  it("a refused correction leaves the turn as it was and says why; a retry of a re-run stays the same attempt", () => {
    let s = turnsReducer(turnsReducer(answered(), { type: "rerun-start", key: "k1" }), { type: "rerun-error", key: "k1", message: "not an entity" });
    expect(s[0]).toMatchObject({ status: "done", attempt: 1, attempts: [], rerunning: false, rerunError: "not an entity", result });
    s = turnsReducer(s, { type: "turn", key: "k1", data: { ...start, attempt: 2, change } });
    s = turnsReducer(s, { type: "retry", turnId: "t1" });
    s = turnsReducer(s, { type: "turn", key: "k1", data: { ...start, attempt: 2, change } });
    expect(s[0].attempts.map((a) => a.attempt)).toEqual([1]);
    expect(s[0].attempt).toBe(2);
  });

  it("rebuilds stored attempts with their answers, traces and corrections", () => {
    const dto: TurnDto = {
      id: "t9",
      conversationId: "c",
      index: 0,
      question: "Who?",
      status: "done",
      answer: result.answer,
      naturalAnswer: null,
      source: "kg",
      standaloneQuestion: null,
      error: null,
      trace: [ev],
      stats: result.stats,
      config: { strategy: "chatty-kg" },
      sparql: result.sparql,
      feedback: null,
      createdAt: "2025-01-01T00:00:00Z",
      finishedAt: null,
      attempt: 2,
      change,
      attempts: [{ ...{ attempt: 1, change: null, status: "done", answer: { kind: "none", reason: "no" }, naturalAnswer: null, source: "none", standaloneQuestion: null, error: null, trace: [], stats: result.stats, config: {}, sparql: [], feedback: -1, createdAt: "", finishedAt: null } }],
    };
    const t = turnFromDto(dto);
    expect(t).toMatchObject({ attempt: 2, change, strategy: "chatty-kg" });
    expect(t.attempts[0]).toMatchObject({ attempt: 1, result: { answer: { kind: "none" } } });
  });
});

describe("a turn refused before the server saved it", () => {
  it("can be dropped (it is asked again as a new question); a saved turn cannot", () => {
    const s = turnsReducer([], { type: "submit", key: "k1", question: "Who?", kgId: "sample" });
    expect(turnsReducer(s, { type: "drop", key: "k1" })).toEqual([]);
    const saved = turnsReducer(s, { type: "turn", key: "k1", data: { conversationId: "c", turnId: "t1", index: 0, question: "Who?", newConversation: true, title: "Who?" } });
    expect(turnsReducer(saved, { type: "drop", key: "k1" })).toHaveLength(1);
  });
});
