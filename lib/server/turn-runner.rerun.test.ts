// Re-running a stored turn from a corrected step through the turn runner (Chatty-KG, sample KG, scripted model): a new
// attempt streamed like a turn, the earlier one kept, bad corrections refused before anything is stored, another
// session refused (not_found), and a failed re-run retried as the same correction.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/errors";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { scriptFrom } from "@/lib/eval/ck25-scripted";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { chattyKgStrategy } from "@/lib/pipeline/chatty-kg/strategy";
import type { TurnResult } from "@/lib/pipeline/types";
import { createKgRegistry, type KgRegistry } from "./kg-registry";
import { createTempDb, type TempDb } from "./testing/temp-db";
import { createTurnRunner } from "./turn-runner";
import { readAll, resultOf } from "./testing/turn-stream";

const SESSION = "session-rerun";
const RES = "http://example.org/chatty-kg/resource/";
const QUESTION = "Which films did Daniel Radcliffe star in?";

let tmp: TempDb;
let registry: KgRegistry;

beforeAll(async () => {
  tmp = await createTempDb();
  registry = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: `${tmp.dir}/data`, env: {} });
  await registry.getKg(SESSION, "sample");
});
afterAll(async () => {
  await registry.close();
  await tmp.close();
});

function runnerWith(replies: Parameters<typeof scriptFrom>[0]) {
  const llm = createScriptedLlm(scriptFrom(replies));
  const runner = createTurnRunner({
    queries: tmp.queries,
    registry,
    getStrategy: () => chattyKgStrategy,
    createLlm: () => ({ gateway: llm.gateway, provider: "mock", model: "scripted" }),
    similarity: async () => createLexicalSimilarity(),
    flushMs: 10,
  });
  return { runner, roles: () => llm.calls.map((c) => c.role) };
}

const films = (r: TurnResult) => (r.answer.kind === "items" ? r.answer.items.map((i) => i.value.replace(RES, "")) : []);
const ACTOR = { kind: "vertex" as const, mention: "Daniel Radcliffe", iri: `${RES}Daniel_Radcliffe`, label: "Daniel Radcliffe" };
const BOTH_WAYS = { predicates: [{ predicates: ["#^starring", "#^starred in"] }] };

async function askWrongly(): Promise<string> {
  const { runner } = runnerWith({
    chat: [{ toolCall: { name: KG_TOOL, input: { question: QUESTION, language: "en", context_dependent: false } } }],
    qir: [{ entities: ["Daniel Radcliffe"], unknowns: ["?film"], relations: ["starred in"], triples: [["Daniel Radcliffe", "starred in", "?film"]], target: "?film", question_type: "factoid" }],
    vertex: [{ choices: { "Daniel Radcliffe": "#Engineer" } }],
    predicates: [{ predicates: [], none_fit: true }],
  });
  const prepared = await runner.prepareTurn(SESSION, { question: QUESTION, kgId: "sample" });
  expect(resultOf(await readAll(runner.stream(prepared))).result.answer.kind).toBe("none");
  return prepared.turn.id;
}

async function refused(p: Promise<unknown>, code: string): Promise<AppError> {
  const e = await p.then(() => null, (err: unknown) => err);
  expect(isAppError(e, code as never), `expected ${code}, got ${String(e)}`).toBe(true);
  return e as AppError;
}

describe("re-running a stored turn", () => {
  it("streams the corrected attempt as attempt 2, keeps attempt 1, and asks the model only for the later step", async () => {
    const turnId = await askWrongly();
    const { runner, roles } = runnerWith(BOTH_WAYS);
    const prepared = await runner.prepareRerun(SESSION, turnId, { correction: ACTOR });
    const chunks = await readAll(runner.stream(prepared));
    expect(chunks[1]).toMatchObject({ type: "data-turn", data: { turnId, attempt: 2, change: { baseAttempt: 1, correction: ACTOR } } });
    const { status, result } = resultOf(chunks);
    expect(status).toBe("done");
    expect(films(result)).toContain("Swiss_Army_Man");
    expect(result).not.toHaveProperty("snapshot"); // the state stays on the server
    expect(roles()).toEqual(["predicates"]);

    const attempts = await tmp.queries.listAttempts({ sessionId: SESSION, turnId });
    expect(attempts.map((a) => [a.attempt, a.status, a.answer?.kind, a.change?.correction.kind ?? null])).toEqual([
      [1, "done", "none", null],
      [2, "done", "items", "vertex"],
    ]);
    // the first attempt keeps its whole derivation (the Chat agent's call included)
    expect(attempts[0].trace.some((e) => e.type === "llm-call" && e.stage === "chat")).toBe(true);
    expect((await tmp.queries.getAttemptBase({ sessionId: SESSION, turnId, attempt: 2 })).snapshot).toMatchObject({ vertices: { "Daniel Radcliffe": { how: "user" } } });

    // an edited final query, made on attempt 1, is attempt 3
    const edited = runnerWith({});
    const query = `SELECT ?film WHERE { ?film <http://example.org/chatty-kg/ontology/starring> <${RES}Daniel_Radcliffe> }`;
    const third = resultOf(await readAll(edited.runner.stream(await edited.runner.prepareRerun(SESSION, turnId, { attempt: 1, correction: { kind: "final-query", query } }))));
    expect(third.status).toBe("done");
    expect(films(third.result)).toContain("Now_You_See_Me_2");
    expect(films(third.result)).not.toContain("Swiss_Army_Man");
    expect(edited.roles()).toEqual([]);
    expect((await tmp.queries.getTurn({ sessionId: SESSION, turnId })).change).toMatchObject({ baseAttempt: 1, correction: { kind: "final-query" } });
  });

  it("refuses a correction that does not fit, an unsafe query, or another session's turn, and stores nothing", async () => {
    const turnId = await askWrongly();
    const { runner } = runnerWith({});
    const e = await refused(runner.prepareRerun(SESSION, turnId, { correction: { ...ACTOR, mention: "Emma Watson" } }), "bad_request");
    expect(e.message).toMatch(/not an entity of this question/);
    await refused(runner.prepareRerun(SESSION, turnId, { correction: { kind: "final-query", query: "DELETE WHERE { ?s ?p ?o }" } }), "bad_request");
    await refused(runner.prepareRerun(SESSION, turnId, { correction: { kind: "unknown" } }), "bad_request");
    await refused(runner.prepareRerun(SESSION, turnId, { attempt: 2, correction: ACTOR }), "not_found");
    await refused(runner.prepareRerun("session-other", turnId, { correction: ACTOR }), "not_found");
    expect((await tmp.queries.listAttempts({ sessionId: SESSION, turnId })).map((a) => a.attempt)).toEqual([1]);
  });

  it("a re-run that failed is retried as the same correction of the same attempt", async () => {
    const turnId = await askWrongly();
    const failing = runnerWith({ predicates: [{ error: "500", message: "down" }, { error: "500", message: "down" }, { error: "500", message: "down" }, { error: "500", message: "down" }] });
    const failed = resultOf(await readAll(failing.runner.stream(await failing.runner.prepareRerun(SESSION, turnId, { correction: ACTOR }))));
    expect(failed.status).toBe("failed");
    const { runner, roles } = runnerWith(BOTH_WAYS);
    const retried = resultOf(await readAll(runner.stream(await runner.prepareRetry(SESSION, turnId, {}))));
    expect(retried.status).toBe("done");
    expect(films(retried.result)).toHaveLength(22);
    expect(roles()).toEqual(["predicates"]);
    const turn = await tmp.queries.getTurn({ sessionId: SESSION, turnId });
    expect(turn).toMatchObject({ attempt: 2, change: { baseAttempt: 1, correction: ACTOR } });
    expect(turn.attempts).toHaveLength(1);
  });
});

describe("asking a finished turn again", () => {
  it("runs the whole question afresh with the settings sent now, as the next attempt (the earlier one kept)", async () => {
    const turnId = await askWrongly();
    const { runner, roles } = runnerWith({
      chat: [{ toolCall: { name: KG_TOOL, input: { question: QUESTION, language: "en", context_dependent: false } } }],
      qir: [{ entities: ["Daniel Radcliffe"], unknowns: ["?film"], relations: ["starred in"], triples: [["Daniel Radcliffe", "starred in", "?film"]], target: "?film", question_type: "factoid" }],
      vertex: [{ choices: { "Daniel Radcliffe": "#^Daniel Radcliffe(?!.*engineer)" } }],
      ...BOTH_WAYS,
    });
    const prepared = await runner.prepareRerun(SESSION, turnId, { correction: { kind: "again" }, config: { vlimit: 50 } });
    const chunks = await readAll(runner.stream(prepared));
    expect(chunks[1]).toMatchObject({ type: "data-turn", data: { turnId, attempt: 2, change: { baseAttempt: 1, correction: { kind: "again" } } } });
    const { status, result } = resultOf(chunks);
    expect(status).toBe("done");
    expect(films(result)).toContain("Swiss_Army_Man");
    // every step ran again, from the Chat agent on (nothing kept from attempt 1)
    expect(roles().slice(0, 2)).toEqual(["chat", "qir"]);
    const turn = await tmp.queries.getTurn({ sessionId: SESSION, turnId });
    // the parameter sent now is what attempt 2 ran with; the others as stored
    expect(turn.config).toMatchObject({ vlimit: 50, strategy: "chatty-kg" });
    expect(turn.attempts.map((a) => [a.attempt, a.answer?.kind])).toEqual([[1, "none"]]);
  });
});
