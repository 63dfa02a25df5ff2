// Attempt queries on a fresh database (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres): a correction archives the
// current outcome and starts the next attempt; only the owner can.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDb, testDialect, type TempDb } from "@/lib/server/testing/temp-db";
import type { PrismaClient } from "./client";
import type { Queries } from "./queries";
import { ALICE, BOB, config, expectNotFound, result, trace } from "./testing/query-fixtures";

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

describe("attempts (re-runs after a user's correction)", () => {
  const correction = { kind: "vertex" as const, mention: "France", iri: "http://example.org/France_country" };
  const snapshot = { version: 1, vertices: { France: { iri: "http://example.org/France" } } };

  async function finishedTurn(sessionId = ALICE) {
    const c = await q.createConversation({ sessionId, title: "attempts", kgId: "sample" });
    const t = await q.createTurn({ sessionId, conversationId: c.id, question: "Capital of France?", config });
    await q.appendTrace({ sessionId, turnId: t.id, events: trace.slice(0, 1) });
    await q.finishTurn({ sessionId, turnId: t.id, result: { ...result, snapshot }, trace });
    await q.setFeedback({ sessionId, turnId: t.id, feedback: -1 });
    return { c, t };
  }

  it("keeps the first attempt (answer, full trace, snapshot, feedback) and runs the next one in the turn's row", async () => {
    const { c, t } = await finishedTurn();
    expect((await q.getAttemptBase({ sessionId: ALICE, turnId: t.id, attempt: 1 })).snapshot).toEqual(snapshot);
    const started = await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction } });
    expect(started).toMatchObject({ status: "running", attempt: 2, change: { baseAttempt: 1, correction }, answer: null, trace: [], feedback: null });
    expect(started.attempts).toHaveLength(1);
    expect(started.attempts[0]).toMatchObject({ attempt: 1, status: "done", change: null, answer: result.answer, sparql: result.sparql, trace, feedback: -1 });

    const second = { ...result, answer: { kind: "count" as const, count: 2 }, snapshot: { version: 1, second: true } };
    await q.appendTrace({ sessionId: ALICE, turnId: t.id, events: trace.slice(0, 1) });
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result: second, trace });
    // the page and the export read the latest attempt as the turn, the earlier one beside it
    const conversation = await q.getConversation({ sessionId: ALICE, conversationId: c.id });
    expect(conversation.turns[0]).toMatchObject({ attempt: 2, status: "done", answer: second.answer, trace });
    expect(conversation.turns[0].attempts.map((a) => a.attempt)).toEqual([1]);
    // the dialogue context of the next turns is the latest answer
    expect((await q.getDialogue({ sessionId: ALICE, conversationId: c.id })).turns[0].answer).toEqual(second.answer);
    expect((await q.listAttempts({ sessionId: ALICE, turnId: t.id })).map((a) => [a.attempt, a.answer?.kind])).toEqual([
      [1, "items"],
      [2, "count"],
    ]);
    // each attempt's own snapshot and trace are what a later correction starts from
    expect((await q.getAttemptBase({ sessionId: ALICE, turnId: t.id, attempt: 1 })).snapshot).toEqual(snapshot);
    expect((await q.getAttemptBase({ sessionId: ALICE, turnId: t.id, attempt: 2 })).snapshot).toEqual(second.snapshot);
    expect((await q.getAttemptBase({ sessionId: ALICE, turnId: t.id, attempt: 1 })).trace).toEqual(trace);
    await expectNotFound(q.getAttemptBase({ sessionId: ALICE, turnId: t.id, attempt: 3 }));
  });

  it("refuses a running turn, an attempt that does not exist, and a second simultaneous re-run", async () => {
    const { t } = await finishedTurn();
    await expect(q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 2, correction } })).rejects.toThrow(/no attempt 2/);
    const results = await Promise.allSettled([1, 2, 3].map(() => q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction } })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason))).toEqual([
      expect.stringMatching(/still running|already being re-run/),
      expect.stringMatching(/still running|already being re-run/),
    ]);
    expect((await q.listAttempts({ sessionId: ALICE, turnId: t.id })).map((a) => a.attempt)).toEqual([1, 2]);
    await expect(q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction } })).rejects.toThrow(/still running/);
  });

  it("another session cannot start, list or read attempts (not_found); deleting the conversation deletes them", async () => {
    const { c, t } = await finishedTurn();
    await expectNotFound(q.startAttempt({ sessionId: BOB, turnId: t.id, change: { baseAttempt: 1, correction } }));
    await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction } });
    await expectNotFound(q.listAttempts({ sessionId: BOB, turnId: t.id }));
    await expectNotFound(q.getAttemptBase({ sessionId: BOB, turnId: t.id, attempt: 1 }));
    await q.deleteConversation({ sessionId: ALICE, conversationId: c.id });
    expect(await db.turnAttempt.count({ where: { turnId: t.id } })).toBe(0);
  });
});
