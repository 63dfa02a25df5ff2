// Turn queries on a fresh database (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres): a turn stored as running, its
// result, failure, retry and interruption, and the trace rows appended while it runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { createTempDb, testDialect, type TempDb } from "@/lib/server/testing/temp-db";
import type { PrismaClient } from "./client";
import type { Queries } from "./queries";
import { ALICE, BOB, config, result, trace } from "./testing/query-fixtures";

const dialect = testDialect();
let tmp: TempDb;
let db: PrismaClient;
let q: Queries;

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-db-", dialect);
  db = tmp.db;
  q = tmp.queries;
});

afterAll(async () => {
  await tmp?.close();
});

describe("turns", () => {
  it("persists the question as running, then stores the result, trace and stats", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "France", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "What is the capital of France?", config });
    expect(t).toMatchObject({ index: 0, status: "running", answer: null, trace: [], sparql: [] });
    // the stored config carries the pipeline defaults alongside the KG and model
    expect(t.config).toMatchObject({ theta: 3, vlimit: 600, kg: { id: "sample" }, llm: { provider: "mock" } });

    await q.appendTrace({ sessionId: ALICE, turnId: t.id, events: [trace[0]] });
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).trace).toEqual([trace[0]]);

    const done = await q.finishTurn({ sessionId: ALICE, turnId: t.id, result, trace });
    expect(done.status).toBe("done");
    expect(done.finishedAt).toBeInstanceOf(Date);

    const stored = (await q.getConversation({ sessionId: ALICE, conversationId: c.id })).turns[0];
    expect(stored.answer).toEqual(result.answer);
    expect(stored.trace).toEqual(trace);
    expect(stored.stats).toEqual(result.stats);
    expect(stored.sparql).toEqual(result.sparql);
    expect(stored.standaloneQuestion).toBe("What is the capital of France?");
    expect(stored.source).toBe("kg");

    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: -1 });
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).feedback).toBe(-1);
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: null });
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).feedback).toBeNull();
  });

  it("marks a failed result failed, and retry resets it to running with the same question", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Fails", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Who?", config });
    const failed = await q.finishTurn({
      sessionId: ALICE,
      turnId: t.id,
      trace,
      result: {
        ...result,
        answer: { kind: "none", reason: "entity linking failed" },
        source: "failed",
        error: { code: "llm_timeout", message: "The model did not answer in time.", stage: "qir" },
      },
    });
    expect(failed).toMatchObject({ status: "failed", error: { code: "llm_timeout", stage: "qir" } });

    const retried = await q.retryTurn({ sessionId: ALICE, turnId: t.id });
    expect(retried).toMatchObject({ status: "running", question: "Who?", index: 0, error: null, answer: null, trace: [] });

    // a running turn cannot be retried (and a second simultaneous retry is refused)
    const again = await q.retryTurn({ sessionId: ALICE, turnId: t.id }).catch((e: unknown) => e);
    expect(isAppError(again, "bad_request")).toBe(true);
  });

  it("marks turns left running by a previous process as interrupted, and they can be retried", async () => {
    const c = await q.createConversation({ sessionId: BOB, title: "Crash", kgId: "sample" });
    const t = await q.createTurn({ sessionId: BOB, conversationId: c.id, question: "Still running?", config });
    const finished = await q.createTurn({ sessionId: BOB, conversationId: c.id, question: "Done", config });
    await q.finishTurn({ sessionId: BOB, turnId: finished.id, result, trace });

    expect(await q.markInterruptedTurns()).toBeGreaterThanOrEqual(1);
    expect(await q.getTurn({ sessionId: BOB, turnId: t.id })).toMatchObject({ status: "interrupted", error: { code: "aborted" } });
    expect((await q.getTurn({ sessionId: BOB, turnId: finished.id })).status).toBe("done");
    expect((await q.retryTurn({ sessionId: BOB, turnId: t.id })).status).toBe("running");
  });

  it("failTurn records an unexpected failure without losing the question", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Crash 2", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Boom?", config });
    const failed = await q.failTurn({ sessionId: ALICE, turnId: t.id, error: { code: "internal", message: "x" }, trace });
    expect(failed).toMatchObject({ status: "failed", question: "Boom?", trace, error: { code: "internal" } });
  });

  it("reports a malformed stored JSON column as an internal error instead of returning junk", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Corrupt", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "?", config });
    await db.turn.update({ where: { id: t.id }, data: { answer: { kind: "wrong" } } });
    const e = await q.getTurn({ sessionId: ALICE, turnId: t.id }).catch((err: unknown) => err);
    expect(isAppError(e, "internal")).toBe(true);
  });
});


describe("trace events (rows appended while a turn runs)", () => {
  const events: DerivationEvent[] = Array.from({ length: 7 }, (_, i) => ({ type: "stage-start", stage: "qir", at: i, note: `é ${i} "quoted" 0.1` }) as DerivationEvent);

  it("appends in batches, keeps the order, and finishTurn adds only the events not stored yet", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Appends", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Order?", config });
    await q.appendTrace({ sessionId: ALICE, turnId: t.id, events: events.slice(0, 2) });
    await q.appendTrace({ sessionId: ALICE, turnId: t.id, events: [] });
    await q.appendTrace({ sessionId: ALICE, turnId: t.id, events: events.slice(2, 5) });
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).trace).toEqual(events.slice(0, 5));
    const done = await q.finishTurn({ sessionId: ALICE, turnId: t.id, result, trace: events });
    expect(done.trace).toEqual(events);
    expect((await q.getConversation({ sessionId: ALICE, conversationId: c.id })).turns[0].trace).toEqual(events);
    expect(await db.traceEvent.count({ where: { turnId: t.id } })).toBe(7); // nothing stored twice
    // a failure after events were appended keeps them too
    const t2 = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Fails?", config });
    await q.appendTrace({ sessionId: ALICE, turnId: t2.id, events: events.slice(0, 3) });
    const failed = await q.failTurn({ sessionId: ALICE, turnId: t2.id, error: { code: "internal", message: "x" }, trace: events.slice(0, 4) });
    expect(failed.trace).toEqual(events.slice(0, 4));
  });

  it("a retry starts with an empty trace; deleting the conversation deletes the events", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Retry events", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Again?", config });
    await q.appendTrace({ sessionId: ALICE, turnId: t.id, events });
    await q.failTurn({ sessionId: ALICE, turnId: t.id, error: { code: "internal", message: "x" } });
    expect((await q.retryTurn({ sessionId: ALICE, turnId: t.id })).trace).toEqual([]);
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).trace).toEqual([]);
    await q.appendTrace({ sessionId: ALICE, turnId: t.id, events: events.slice(0, 1) });
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).trace).toEqual(events.slice(0, 1));
    await q.deleteConversation({ sessionId: ALICE, conversationId: c.id });
    expect(await db.traceEvent.count({ where: { turnId: t.id } })).toBe(0);
  });

  it("a turn stored before trace rows existed still shows its trace from the JSON column", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Legacy", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Old?", config });
    await db.turn.update({ where: { id: t.id }, data: { trace: trace as never, status: "done" } });
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).trace).toEqual(trace);
  });
});
