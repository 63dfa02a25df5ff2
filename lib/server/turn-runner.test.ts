// Turn runner with a scripted LLM and the sample KG: question saved first, events streamed and stored, failures and stops recorded.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { streamEvents } from "@/lib/pipeline/event-stream";
import type { AnswerItem, Strategy, TurnResult } from "@/lib/pipeline/types";
import { createKgRegistry, type KgRegistry } from "./kg-registry";
import { createTempDb, type TempDb } from "./testing/temp-db";
import { readAll } from "./testing/turn-stream";
import { createTurnRunner, STOPPED_MESSAGE, titleFor, type TurnRunnerDeps } from "./turn-runner";

/** What the stream carries, loosely typed: the tests check `type` order and `data` payloads. */

const SESSION = "session-runner";
const ROWLING_BOOKS =
  "SELECT ?book WHERE { ?book <http://example.org/chatty-kg/ontology/author> <http://example.org/chatty-kg/resource/J_K_Rowling> }";

/**
 * A small strategy with the shape of the real one: one LLM call (the "qir" role writes the query), one SPARQL query
 * on the KG, stage events around both. It lets these tests script the LLM reply by reply.
 */
const lookupStrategy: Strategy = {
  id: "chatty-kg",
  label: "lookup (test)",
  description: "LLM writes one query; the KG answers it.",
  run: (input, deps) =>
    streamEvents(async (emit): Promise<TurnResult> => {
      const t0 = Date.now();
      emit({ type: "stage-start", stage: "qir", at: t0 });
      const reply = await deps.llm.call({ role: "qir", prompt: input.question, signal: input.signal });
      emit({ type: "llm-call", stage: "qir", call: reply.record });
      emit({ type: "stage-end", stage: "qir", at: Date.now(), ms: Date.now() - t0, summary: "query written" });
      const rows = await deps.kg.select(reply.text, { signal: input.signal });
      emit({ type: "sparql", stage: "execution", purpose: "answer", query: reply.text, ms: 1, rows: rows.results.bindings.length });
      const items: AnswerItem[] = rows.results.bindings.map((b) => ({ type: "uri", value: Object.values(b)[0].value }));
      const stats = { ms: Date.now() - t0, llmCalls: 1, tokensIn: 1, tokensOut: 1, queries: 1, stageMs: {} };
      return { answer: { kind: "items", items }, source: "kg", sparql: [reply.text], stats };
    }),
};

let tmp: TempDb;
let registry: KgRegistry;

beforeAll(async () => {
  tmp = await createTempDb();
  registry = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: `${tmp.dir}/data`, env: {} });
  await registry.getKg(SESSION, "sample"); // load once, outside the timed tests
});
afterAll(async () => {
  await registry.close();
  await tmp.close();
});

function runnerWith(script: Script | "no-llm", overrides: Partial<TurnRunnerDeps> = {}) {
  const llm = script === "no-llm" ? undefined : createScriptedLlm(script);
  return createTurnRunner({
    queries: tmp.queries,
    registry,
    getStrategy: () => lookupStrategy,
    createLlm: () => {
      if (!llm) throw new AppError("llm_not_configured", "No LLM is configured. Set OPENAI_API_KEY …");
      return { gateway: llm.gateway, provider: "mock", model: "scripted" };
    },
    similarity: async () => createLexicalSimilarity(),
    flushMs: 10,
    ...overrides,
  });
}

describe("turn runner", () => {
  it("saves the question before the pipeline runs, streams the events in order and stores the answer", async () => {
    let seenDuringRun: { status: string; question: string } | undefined;
    const runner = runnerWith({
      qir: [
        async () => {
          // inside the LLM call: the turn must already be in the database
          const conversations = await tmp.queries.listConversations({ sessionId: SESSION });
          const c = await tmp.queries.getConversation({ sessionId: SESSION, conversationId: conversations[0].id });
          seenDuringRun = { status: c.turns[0].status, question: c.turns[0].question };
          return ROWLING_BOOKS;
        },
      ],
    });
    const prepared = await runner.prepareTurn(SESSION, { question: "  Which books did   J. K. Rowling write? ", kgId: "sample" });
    const chunks = await readAll(runner.stream(prepared));

    expect(seenDuringRun).toEqual({ status: "running", question: "Which books did   J. K. Rowling write?" });
    const types = chunks.map((c) => c.type);
    expect(types[0]).toBe("start");
    expect(types[1]).toBe("data-turn");
    expect(types.at(-2)).toBe("data-result");
    expect(types.at(-1)).toBe("finish");
    expect(types.filter((t) => t === "data-event")).toHaveLength(4);
    expect(types).not.toContain("data-error");

    const start = chunks[1].data as { conversationId: string; turnId: string; index: number; newConversation: boolean; title: string };
    expect(start).toMatchObject({ index: 0, newConversation: true, title: "Which books did J. K. Rowling write?" });
    const result = chunks.at(-2)!.data as { status: string; result: TurnResult };
    expect(result.status).toBe("done");
    expect(result.result.answer.kind).toBe("items");
    const books = (result.result.answer as { items: AnswerItem[] }).items.map((i) => i.value);
    expect(books).toContain("http://example.org/chatty-kg/resource/Harry_Potter_and_the_Philosophers_Stone");

    const stored = await tmp.queries.getTurn({ sessionId: SESSION, turnId: start.turnId });
    expect(stored.status).toBe("done");
    expect(stored.trace.map((e) => e.type)).toEqual(["stage-start", "llm-call", "stage-end", "sparql"]);
    expect(stored.sparql).toEqual([ROWLING_BOOKS]);
    expect(stored.config).toMatchObject({ kg: { id: "sample" }, llm: { provider: "mock", model: "scripted" }, theta: 3 });
  });

  it("uses the KG's default strategy when the request names none, and the named one otherwise", async () => {
    const asked: string[] = [];
    const runner = runnerWith({}, { defaultStrategy: async (_s, kgId) => (asked.push(kgId), "triad") });
    const byDefault = await runner.prepareTurn(SESSION, { question: "Who wrote it?", kgId: "sample" });
    expect(byDefault.config.strategy).toBe("triad");
    expect(asked).toEqual(["sample"]);
    const named = await runner.prepareTurn(SESSION, { question: "Who wrote it?", kgId: "sample", config: { strategy: "explorer" } });
    expect(named.config.strategy).toBe("explorer");
    expect(asked).toHaveLength(1);
  });

  it("writes events to the stored trace while the turn is still running", async () => {
    let traceMidRun: string[] = [];
    let turnId = "";
    const slowKg = {
      ...registry,
      getKg: async (s: string, id: string) => {
        const kg = await registry.getKg(s, id);
        return {
          ...kg,
          info: kg.info,
          profile: kg.profile,
          select: async (q: string, o?: object) => {
            await new Promise((r) => setTimeout(r, 80)); // longer than flushMs: the batch of LLM events gets written
            traceMidRun = (await tmp.queries.getTurn({ sessionId: SESSION, turnId })).trace.map((e) => e.type);
            return kg.select(q, o);
          },
        };
      },
    } as KgRegistry;
    const slow = createTurnRunner({ ...scriptedDeps(), registry: slowKg });
    const prepared = await slow.prepareTurn(SESSION, { question: "Rowling's books?", kgId: "sample" });
    turnId = prepared.turn.id;
    await readAll(slow.stream(prepared));
    expect(traceMidRun).toEqual(["stage-start", "llm-call", "stage-end"]);
    expect((await tmp.queries.getTurn({ sessionId: SESSION, turnId })).trace).toHaveLength(4);
  });

  it("adds later turns to the same conversation with the earlier answers as dialogue", async () => {
    const runner = runnerWith({ qir: [ROWLING_BOOKS, ROWLING_BOOKS] });
    const first = await runner.prepareTurn(SESSION, { question: "Books by Rowling?", kgId: "sample" });
    await readAll(runner.stream(first));
    const second = await runner.prepareTurn(SESSION, { question: "And when were they published?", kgId: "sample", conversationId: first.start.conversationId });
    expect(second.start).toMatchObject({ index: 1, newConversation: false, title: "Books by Rowling?" });
    expect(second.dialogue).toHaveLength(1);
    expect(second.dialogue[0].question).toBe("Books by Rowling?");
    expect(second.dialogue[0].answer?.kind).toBe("items");
  });

  it("stores a failed turn with the error, streams data-error and a failed data-result", async () => {
    const runner = runnerWith({ qir: [{ error: "401", message: "bad key" }] });
    const prepared = await runner.prepareTurn(SESSION, { question: "Who wrote it?", kgId: "sample" });
    const chunks = await readAll(runner.stream(prepared));
    const error = chunks.find((c) => c.type === "data-error")!.data as { code: string; message: string };
    expect(error.code).toBe("llm_auth");
    const result = chunks.find((c) => c.type === "data-result")!.data as { status: string; result: TurnResult };
    expect(result.status).toBe("failed");
    expect(result.result.error?.code).toBe("llm_auth");
    const stored = await tmp.queries.getTurn({ sessionId: SESSION, turnId: prepared.turn.id });
    expect(stored).toMatchObject({ status: "failed", question: "Who wrote it?", error: { code: "llm_auth" } });
  });

  it("with no LLM configured, keeps the question and fails at once with the configuration message", async () => {
    const runner = runnerWith("no-llm");
    const prepared = await runner.prepareTurn(SESSION, { question: "Anyone there?", kgId: "sample" });
    const chunks = await readAll(runner.stream(prepared));
    expect(chunks.filter((c) => c.type === "data-event")).toHaveLength(0);
    const result = chunks.find((c) => c.type === "data-result")!.data as { status: string; result: TurnResult };
    expect(result.result.error).toMatchObject({ code: "llm_not_configured" });
    expect(result.result.error?.message).toContain("OPENAI_API_KEY");
    const stored = await tmp.queries.getTurn({ sessionId: SESSION, turnId: prepared.turn.id });
    expect(stored).toMatchObject({ status: "failed", question: "Anyone there?", error: { code: "llm_not_configured" } });
  });

  it("marks the turn interrupted when the client stops, without waiting for the slow LLM", async () => {
    const runner = runnerWith({ qir: [{ delayMs: 10_000, then: ROWLING_BOOKS }] });
    const prepared = await runner.prepareTurn(SESSION, { question: "Slow one?", kgId: "sample" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const chunks = await readAll(runner.stream(prepared, controller.signal));
    expect(Date.now() - started).toBeLessThan(3000);
    const result = chunks.find((c) => c.type === "data-result")!.data as { status: string };
    expect(result.status).toBe("interrupted");
    const stored = await tmp.queries.getTurn({ sessionId: SESSION, turnId: prepared.turn.id });
    expect(stored.status).toBe("interrupted");
    expect(stored.error?.message).toBe(STOPPED_MESSAGE);
    expect(stored.trace.map((e) => e.type)).toEqual(["stage-start"]);
  });

  it("retries a failed turn in place and rejects retrying a finished one", async () => {
    const runner = runnerWith({ qir: [{ error: "500" }, { error: "500" }, { error: "500" }, { error: "500" }, ROWLING_BOOKS] });
    const prepared = await runner.prepareTurn(SESSION, { question: "Retry me", kgId: "sample" });
    const first = await readAll(runner.stream(prepared));
    expect((first.find((c) => c.type === "data-result")!.data as { status: string }).status).toBe("failed");
    const again = await runner.prepareRetry(SESSION, prepared.turn.id, {});
    expect(again.start).toMatchObject({ turnId: prepared.turn.id, index: prepared.turn.index, newConversation: false });
    const second = await readAll(runner.stream(again));
    expect((second.find((c) => c.type === "data-result")!.data as { status: string }).status).toBe("done");
    expect((await tmp.queries.getTurn({ sessionId: SESSION, turnId: prepared.turn.id })).status).toBe("done");
    await expect(runner.prepareRetry(SESSION, prepared.turn.id, {})).rejects.toMatchObject({ code: "bad_request" });
  });

  it("refuses another session's conversation, turn and KG before saving anything", async () => {
    const runner = runnerWith({ qir: [ROWLING_BOOKS] });
    const mine = await runner.prepareTurn(SESSION, { question: "Mine", kgId: "sample" });
    await readAll(runner.stream(mine));
    await expect(runner.prepareTurn("intruder", { question: "x", kgId: "sample", conversationId: mine.start.conversationId })).rejects.toMatchObject({ code: "not_found" });
    await expect(runner.prepareRetry("intruder", mine.turn.id, {})).rejects.toMatchObject({ code: "not_found" });
    await expect(runner.prepareTurn("intruder", { question: "x", kgId: "someone-elses-upload" })).rejects.toMatchObject({ code: "not_found" });
    await expect(runner.prepareTurn("intruder", { question: "   ", kgId: "sample" })).rejects.toMatchObject({ code: "bad_request" });
    expect(await tmp.queries.listConversations({ sessionId: "intruder" })).toEqual([]);
  });
});

describe("titleFor", () => {
  it("collapses whitespace and cuts at 80 characters", () => {
    expect(titleFor("  a \n b  ")).toBe("a b");
    const long = titleFor("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(80);
    expect(long.endsWith("…")).toBe(true);
  });
});

function scriptedDeps(): TurnRunnerDeps {
  const llm = createScriptedLlm({ qir: [ROWLING_BOOKS] });
  return {
    queries: tmp.queries,
    registry,
    getStrategy: () => lookupStrategy,
    createLlm: () => ({ gateway: llm.gateway, provider: "mock", model: "scripted" }),
    similarity: async () => createLexicalSimilarity(),
    flushMs: 10,
  };
}
