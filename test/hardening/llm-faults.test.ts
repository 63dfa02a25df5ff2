// Hardening, LLM faults through a whole turn (turn runner + real Chatty-KG strategy + scripted LLM): each ends "failed"
// with the stage and a clear message, the question is kept, and a retry afterwards works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScriptedLlm, type Script, type ScriptedReply } from "@/lib/llm/testing/scripted-model";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { askKg, createHarness, outcomeOf, qirFor, readAll, runnerOn, type Harness, type TurnOutcome } from "./harness";

const SESSION = "hardening-llm";
const QUESTION = "Who is the author of Harry Potter?";
let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** The number of the numbered prompt option ("3. Harry Potter — type: book series") matching `re`. */
function option(messages: PlainMessage[], re: RegExp): number | string {
  const last = [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
  for (const line of last.split("\n")) {
    const m = /^(\d+)\. (.*)$/.exec(line.trim());
    if (m && re.test(m[2])) return Number(m[1]);
  }
  return `no option matches ${re}`;
}
const pickHarryPotter: ScriptedReply = (messages) => ({ choices: { "Harry Potter": option(messages, /^Harry Potter — type: book series/i) } });
/** Every option number whose text matches. */
function options(messages: PlainMessage[], re: RegExp): number[] {
  const last = [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
  return last.split("\n").flatMap((line) => {
    const m = /^(\d+)\. (.*)$/.exec(line.trim());
    return m && re.test(m[2]) ? [Number(m[1])] : [];
  });
}
const pickAuthor: ScriptedReply = (messages) => ({ reasoning: "author/wrote", predicates: options(messages, /^(author|wrote)( \(|$)/i) });
/** A model that works: the Figure-1 first turn. */
const working = (): Script => ({ chat: [askKg(QUESTION)], qir: [qirFor("Harry Potter")], vertex: [pickHarryPotter], predicates: [pickAuthor] });
/** What the KG-pipeline stages see first: the chat agent hands the question to the KG tool. */
const toQir = (...qir: Script["qir"] & unknown[]): Script => ({ chat: [askKg(QUESTION)], qir });

interface Run {
  out: TurnOutcome;
  turnId: string;
  calls: number;
}

async function ask(script: Script, opts: { waits?: number[]; config?: Record<string, unknown>; question?: string } = {}): Promise<Run> {
  const llm = createScriptedLlm(script, {
    fallback: () => "{}",
    gateway: { sleep: async (ms) => void opts.waits?.push(ms), retry: { baseDelayMs: 10 } },
  });
  const { runner } = runnerOn(h, { llm });
  const p = await runner.prepareTurn(SESSION, { question: opts.question ?? QUESTION, kgId: "sample", ...(opts.config ? { config: opts.config } : {}) });
  const out = outcomeOf(await readAll(runner.stream(p)));
  return { out, turnId: p.turn.id, calls: llm.calls.length };
}

/** The turn failed at `stage` with `code`; the question is stored; a retry with a working model ends "done". */
async function expectFailedThenRetry(run: Run, stage: string, code: string, message: RegExp, question = QUESTION, retryScript: Script = working()) {
  expect(run.out.status).toBe("failed");
  expect(run.out.error, JSON.stringify(run.out.error)).toMatchObject({ code, stage });
  expect(run.out.error?.message).toMatch(message);
  const stored = await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: run.turnId });
  expect(stored).toMatchObject({ status: "failed", question, error: { code, stage } });

  const llm = createScriptedLlm(retryScript, { fallback: () => "{}" });
  const { runner } = runnerOn(h, { llm });
  const retry = await runner.prepareRetry(SESSION, run.turnId, {});
  const out = outcomeOf(await readAll(runner.stream(retry)));
  expect(out.status, JSON.stringify(out.error)).toBe("done");
  const after = await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: run.turnId });
  expect(after).toMatchObject({ status: "done", question, error: null });
  expect(after.answer?.kind).toBe("items");
}

describe("provider failures", () => {
  it("401 at the first call (chat agent): llm_auth naming the key variable, no key in the message", async () => {
    const run = await ask({ chat: [{ error: "401", message: "Incorrect API key provided: sk-abcdef123456" }] });
    await expectFailedThenRetry(run, "chat", "llm_auth", /rejected the credentials \(HTTP 401\).*LLM_API_KEY/);
    expect(run.out.error?.message).not.toContain("sk-abcdef123456");
  });

  it("401 inside the KG pipeline (QIR)", async () => {
    const run = await ask(toQir({ error: "401" }));
    await expectFailedThenRetry(run, "qir", "llm_auth", /HTTP 401/);
  });

  it("429 with a short retry-after: waits as told (bounded), then succeeds", async () => {
    const waits: number[] = [];
    const run = await ask({ ...working(), qir: [{ error: "429", retryAfter: 1 }, { error: "429", retryAfter: 2 }, qirFor("Harry Potter")] }, { waits });
    expect(run.out.status, JSON.stringify(run.out.error)).toBe("done");
    expect(waits).toEqual([1000, 2000]);
  });

  it("429 with a long retry-after is not waited for: a clear llm_rate_limit at once", async () => {
    const waits: number[] = [];
    const run = await ask(toQir({ error: "429", retryAfter: 3600 }, qirFor("Harry Potter")), { waits });
    expect(waits).toEqual([]);
    expect(run.calls).toBe(2); // chat + one QIR call
    await expectFailedThenRetry(run, "qir", "llm_rate_limit", /rate limiting.*Retry after 3600 s/);
  });

  it("500 on every attempt: bounded retries with backoff (3 calls), then llm_server", async () => {
    const waits: number[] = [];
    const run = await ask(toQir({ error: "500" }, { error: "500" }, { error: "500" }, { error: "500" }), { waits });
    expect(run.calls).toBe(1 + 3);
    expect(waits).toEqual([10, 20]);
    await expectFailedThenRetry(run, "qir", "llm_server", /HTTP 500/);
  });

  it("500 at the chat agent (its own SDK call): bounded, clear llm_server", async () => {
    const started = Date.now();
    const run = await ask({ chat: Array.from({ length: 8 }, () => ({ error: "500" as const })) });
    expect(run.calls).toBeLessThanOrEqual(4);
    expect(Date.now() - started).toBeLessThan(20_000);
    await expectFailedThenRetry(run, "chat", "llm_server", /HTTP 500/);
  });

  it("timeout: llm_timeout", async () => {
    const run = await ask(toQir({ error: "timeout" }));
    await expectFailedThenRetry(run, "qir", "llm_timeout", /did not answer in time/);
  });
});

describe("unusable output is rejected by the validators (θ attempts), then the turn fails at that stage", () => {
  it("empty output", async () => {
    const run = await ask(toQir("", "", ""));
    await expectFailedThenRetry(run, "qir", "pipeline_failed", /empty/);
  });

  it("malformed JSON", async () => {
    const run = await ask(toQir('{"entities": ["Harry Potter"', "not json at all", '{"entities": "not a list"}'));
    await expectFailedThenRetry(run, "qir", "pipeline_failed", /Could not understand the question: .*(JSON|shape)/);
  });

  it("hallucinated vertex: an IRI or option the model was not shown", async () => {
    const run = await ask({
      chat: [askKg(QUESTION), "…"],
      qir: [qirFor("Harry Potter")],
      vertex: [
        { choices: { "Harry Potter": "http://dbpedia.org/resource/Harry_Potter" } },
        { choices: { "Harry Potter": 999 } },
        { choices: { "Harry Potter": "http://example.org/chatty-kg/resource/Made_Up" } },
      ],
    });
    await expectFailedThenRetry(run, "entity-linking", "pipeline_failed", /Harry Potter/);
  });

  it("hallucinated predicates: IRIs and option numbers that were not offered", async () => {
    const bad = { reasoning: "made up", predicates: ["http://dbpedia.org/ontology/writer", 999] };
    const run = await ask({
      chat: [askKg(QUESTION), "…"],
      qir: [qirFor("Harry Potter")],
      vertex: [pickHarryPotter],
      predicates: [bad, bad, bad],
    });
    expect(run.out.status).toBe("failed");
    // every SPARQL query that did run used only IRIs of the KG, never the invented predicate
    const stored = await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: run.turnId });
    const sparql = stored.trace.filter((e) => e.type === "sparql").map((e) => (e as { query: string }).query);
    expect(sparql.join("\n")).not.toContain("dbpedia.org/ontology/writer");
    await expectFailedThenRetry(run, run.out.error!.stage!, "pipeline_failed", /predicate|option|999/i);
  });

  it("wrong language: the translator answers German for an English question", async () => {
    const question = "Who wrote “Harry Potter”?"; // typographic quotes: not plain ASCII, so the translator is asked
    const german = { language: "de", english: "Wer hat „Harry Potter“ geschrieben?" };
    const run = await ask({ chat: [askKg(question), "…"], translator: [german, german, german] }, { config: { batchContext: false }, question });
    await expectFailedThenRetry(run, "translate", "pipeline_failed", /not in English/, question, {
      ...working(),
      translator: [{ language: "en", english: question }],
    });
  });
});
