// Hardening, database: concurrent turns writing traces (WAL + busy timeout, no lost events), a restart in the middle
// of a turn (left "running" → "interrupted" at start-up → retry works), and a retry storing the config it ran with.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { streamEvents } from "@/lib/pipeline/event-stream";
import type { Strategy, TurnResult } from "@/lib/pipeline/types";
import { createHarness, outcomeOf, readAll, runnerOn, type Harness } from "./harness";

const SESSION = "hardening-db";
const EVENTS = 30;
let h: Harness;

/** No LLM: emits EVENTS stage events over ~60 ms (so trace batches interleave across turns), then answers. */
const chattyStrategy: Strategy = {
  id: "chatty-kg",
  label: "busy writer (test)",
  description: "Many events, small pauses.",
  run: (input, deps) =>
    streamEvents(async (emit): Promise<TurnResult> => {
      for (let i = 0; i < EVENTS; i++) {
        emit({ type: "stage-end", stage: "qir", at: Date.now(), ms: i, summary: `step ${i}` });
        if (i % 5 === 0) await new Promise((r) => setTimeout(r, 10));
      }
      const rows = await deps.kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }", { signal: input.signal });
      const stats = { ms: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 1, stageMs: {} };
      return { answer: { kind: "items", items: [{ type: "literal", value: rows.results.bindings[0].n.value }] }, source: "kg", sparql: [], stats };
    }),
};

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describe("concurrent writers", () => {
  it("20 concurrent turns writing traces: all done, no event lost or duplicated", async () => {
    const { runner } = runnerOn(h, { script: {}, strategy: chattyStrategy, overrides: { flushMs: 5 } });
    const prepared = await Promise.all(Array.from({ length: 20 }, (_, i) => runner.prepareTurn(SESSION, { question: `Concurrent question ${i}`, kgId: "sample" })));
    const outcomes = await Promise.all(prepared.map(async (p) => outcomeOf(await readAll(runner.stream(p)))));
    expect(outcomes.map((o) => o.status)).toEqual(Array(20).fill("done"));
    for (const p of prepared) {
      const stored = await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: p.turn.id });
      expect(stored.status).toBe("done");
      expect(stored.trace.map((e) => (e as { summary?: string }).summary)).toEqual(Array.from({ length: EVENTS }, (_, i) => `step ${i}`));
    }
  }, 60_000);

  it("20 questions posted at once into one conversation get distinct, gap-free positions", async () => {
    const { runner } = runnerOn(h, { script: {}, strategy: chattyStrategy });
    const first = await runner.prepareTurn(SESSION, { question: "Start", kgId: "sample" });
    await readAll(runner.stream(first));
    const conversationId = first.start.conversationId;
    const many = await Promise.all(
      Array.from({ length: 20 }, (_, i) => runner.prepareTurn(SESSION, { question: `Follow-up ${i}`, kgId: "sample", conversationId })),
    );
    await Promise.all(many.map(async (p) => readAll(runner.stream(p))));
    const conversation = await h.tmp.queries.getConversation({ sessionId: SESSION, conversationId });
    expect(conversation.turns.map((t) => t.index)).toEqual(Array.from({ length: 21 }, (_, i) => i));
    expect(new Set(conversation.turns.map((t) => t.question)).size).toBe(21);
    expect(conversation.turns.every((t) => t.status === "done")).toBe(true);
  }, 60_000);
});

describe("restart in the middle of a turn", () => {
  it("a turn left running becomes interrupted at start-up, keeps its question and partial trace, and retry works", async () => {
    const { runner } = runnerOn(h, { script: {}, strategy: chattyStrategy });
    const p = await runner.prepareTurn("restart-session", { question: "Was I lost?", kgId: "sample" });
    await h.tmp.queries.appendTrace({ sessionId: "restart-session", turnId: p.turn.id, events: [{ type: "stage-start", stage: "qir", at: 1 }] });
    // the process dies here; the next one runs the start-up housekeeping
    expect(await h.tmp.queries.markInterruptedTurns()).toBeGreaterThanOrEqual(1);
    const stored = await h.tmp.queries.getTurn({ sessionId: "restart-session", turnId: p.turn.id });
    expect(stored).toMatchObject({ status: "interrupted", question: "Was I lost?", error: { code: "aborted", message: "The server stopped before this turn finished." } });
    expect(stored.trace).toHaveLength(1);

    const retry = await runner.prepareRetry("restart-session", p.turn.id, {});
    expect(retry.turn.trace).toEqual([]);
    const out = outcomeOf(await readAll(runner.stream(retry)));
    expect(out.status).toBe("done");
    expect(await h.tmp.queries.getTurn({ sessionId: "restart-session", turnId: p.turn.id })).toMatchObject({ status: "done", question: "Was I lost?", error: null });
  });
});

describe("retry stores the config it ran with", () => {
  it("new parameters and the retry's model replace the failed run's", async () => {
    let model = "first-model";
    let fail = true;
    const failing: Strategy = {
      ...chattyStrategy,
      run: (input, deps) =>
        fail
          ? streamEvents(async () => {
              throw new AppError("llm_server", "The LLM provider failed (HTTP 500).");
            })
          : chattyStrategy.run(input, deps),
    };
    const { runner } = runnerOn(h, {
      strategy: failing,
      overrides: { createLlm: () => ({ gateway: {} as never, provider: "mock", model }) },
    });
    const p = await runner.prepareTurn(SESSION, { question: "Config?", kgId: "sample", config: { theta: 3, vlimit: 7 } });
    expect((await readAll(runner.stream(p))).some((c) => c.type === "data-error")).toBe(true);
    expect((await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: p.turn.id })).config).toMatchObject({ theta: 3, vlimit: 7, llm: { model: "first-model" } });

    fail = false;
    model = "second-model";
    const retry = await runner.prepareRetry(SESSION, p.turn.id, { config: { theta: 2 } });
    expect(retry.config).toMatchObject({ theta: 2, vlimit: 7 });
    await readAll(runner.stream(retry));
    const stored = await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: p.turn.id });
    expect(stored.status).toBe("done");
    expect(stored.config).toMatchObject({ theta: 2, vlimit: 7, kg: { id: "sample" }, llm: { provider: "mock", model: "second-model" } });
  });

  it("retryTurn without config keeps the stored one; with an invalid one it refuses and changes nothing", async () => {
    const { runner } = runnerOn(h, { script: "no-llm", strategy: chattyStrategy });
    const p = await runner.prepareTurn(SESSION, { question: "Keep my config", kgId: "sample", config: { theta: 4 } });
    await readAll(runner.stream(p));
    await expect(h.tmp.queries.retryTurn({ sessionId: SESSION, turnId: p.turn.id, config: { theta: 2 } as never })).rejects.toMatchObject({ code: "bad_request" });
    expect((await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: p.turn.id })).status).toBe("failed");
    const reset = await h.tmp.queries.retryTurn({ sessionId: SESSION, turnId: p.turn.id });
    expect(reset.config).toMatchObject({ theta: 4, kg: { id: "sample" } });
  });

  it("a NUL inside a question no longer cuts the stored text", async () => {
    const c = await h.tmp.queries.createConversation({ sessionId: SESSION, title: "nul", kgId: "sample" });
    const t = await h.tmp.queries.createTurn({ sessionId: SESSION, conversationId: c.id, question: "before\u0000after", config: { kg: { id: "sample" } } });
    expect((await h.tmp.queries.getTurn({ sessionId: SESSION, turnId: t.id })).question).toBe("beforeafter");
  });
});
