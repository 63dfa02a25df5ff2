// Queries against a fresh database built from the committed migrations (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres):
// CRUD, ownership, cascade, concurrency (in this process and with another process writing).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { isAppError } from "@/lib/errors";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";
import { createTempDb, testDialect, type TempDb } from "@/lib/server/testing/temp-db";
import type { PrismaClient } from "./client";
import type { Queries } from "./queries";

const dialect = testDialect();
let tmp: TempDb;
let db: PrismaClient;
let q: Queries;

const ALICE = "session-alice";
const BOB = "session-bob";
const config = { kg: { id: "sample", name: "Sample KG" }, llm: { provider: "mock", model: "m" } };

// Run by a child node process: argv = [url, conversationId]. Another app on the same database: it takes the write lock
// for 400 ms, then inserts 20 turns one by one at MAX + 1 while we insert ours (retrying a taken index as we do).
const OTHER_PROCESS = {
  sqlite: `
import { createClient } from "@libsql/client";
const [url, conversationId] = process.argv.slice(1);
const db = createClient({ url });
await db.execute("PRAGMA busy_timeout = 10000");
const tx = await db.transaction("write");
await tx.execute("UPDATE Conversation SET title = title WHERE id = '-'");
console.log("locked");
await new Promise((r) => setTimeout(r, 400));
await tx.commit();
await db.execute("PRAGMA busy_timeout = 10000"); // libsql opened a fresh connection after the transaction
for (let i = 0; i < 20; i++) {
  await db.execute({
    sql: "INSERT INTO Turn (id, conversationId, \\"index\\", question, status, trace, config) " +
      "SELECT ?, ?, COALESCE(MAX(\\"index\\") + 1, 0), ?, 'done', '[]', ? FROM Turn WHERE conversationId = ?",
    args: ["other-" + i, conversationId, "other " + i, JSON.stringify({ kg: { id: "sample" } }), conversationId],
  });
  await new Promise((r) => setTimeout(r, 5));
}
db.close();
`,
  postgres: `
import pg from "pg";
const [url, conversationId] = process.argv.slice(1);
const db = new pg.Client({ connectionString: url });
await db.connect();
await db.query("BEGIN");
await db.query('SELECT 1 FROM "Conversation" WHERE "id" = $1 FOR UPDATE', [conversationId]);
console.log("locked");
await new Promise((r) => setTimeout(r, 400));
await db.query("COMMIT");
for (let i = 0; i < 20; i++) {
  for (;;) {
    try {
      await db.query(
        'INSERT INTO "Turn" ("id", "conversationId", "index", "question", "status", "trace", "config") ' +
          "SELECT $1, $2, COALESCE(MAX(\\"index\\") + 1, 0), $3, 'done', '[]'::jsonb, $4::jsonb FROM \\"Turn\\" WHERE \\"conversationId\\" = $2",
        ["other-" + i, conversationId, "other " + i, JSON.stringify({ kg: { id: "sample" } })],
      );
      break;
    } catch (e) {
      if (e.code !== "23505") throw e;
    }
  }
  await new Promise((r) => setTimeout(r, 5));
}
await db.end();
`,
};

async function expectNotFound(p: Promise<unknown>) {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(isAppError(e, "not_found"), `expected not_found, got ${String(e)}`).toBe(true);
}

const result: TurnResult = {
  answer: { kind: "items", items: [{ type: "uri", value: "http://example.org/Paris", label: "Paris" }] },
  source: "kg",
  standaloneQuestion: "What is the capital of France?",
  sparql: ["SELECT ?c WHERE { <http://example.org/France> <http://example.org/capital> ?c }"],
  stats: { ms: 1200, llmCalls: 4, tokensIn: 900, tokensOut: 120, queries: 3, stageMs: { qir: 300, execution: 40 } },
};
const trace: DerivationEvent[] = [
  { type: "stage-start", stage: "qir", at: 1 },
  { type: "stage-end", stage: "qir", at: 2, ms: 1, summary: "1 triple" },
];

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-db-", dialect);
  db = tmp.db;
  q = tmp.queries;
});

afterAll(async () => {
  await tmp?.close();
});

describe("conversations", () => {
  it("creates, lists newest first, searches, renames and deletes", async () => {
    const first = await q.createConversation({ sessionId: ALICE, title: "Capitals of Europe", kgId: "sample" });
    await new Promise((r) => setTimeout(r, 5));
    const second = await q.createConversation({ sessionId: ALICE, title: "Nobel laureates", kgId: "sample" });

    const all = await q.listConversations({ sessionId: ALICE });
    expect(all.map((c) => c.id)).toEqual([second.id, first.id]);
    expect(all[0]).toMatchObject({ title: "Nobel laureates", kgId: "sample", turnCount: 0 });

    expect((await q.listConversations({ sessionId: ALICE, search: "capitals" })).map((c) => c.id)).toEqual([first.id]);
    // LIKE wildcards in the search are matched literally
    expect(await q.listConversations({ sessionId: ALICE, search: "_" })).toEqual([]);
    expect(await q.listConversations({ sessionId: ALICE, search: "%" })).toEqual([]);
    const pct = await q.createConversation({ sessionId: ALICE, title: "Growth 100% in 2020", kgId: "sample" });
    expect((await q.listConversations({ sessionId: ALICE, search: "100%" })).map((c) => c.id)).toEqual([pct.id]);
    await q.deleteConversation({ sessionId: ALICE, conversationId: pct.id });
    // case-insensitive beyond ASCII, on both databases (SQLite's LIKE folds ASCII only, PostgreSQL's LIKE nothing)
    const umlaut = await q.createConversation({ sessionId: ALICE, title: "Ärzte in MÜNCHEN", kgId: "sample" });
    for (const search of ["ärzte", "münchen", "ÄRZTE IN"]) expect((await q.listConversations({ sessionId: ALICE, search })).map((c) => c.id), search).toEqual([umlaut.id]);
    expect((await q.listConversations({ sessionId: BOB, search: "ärzte" }))).toEqual([]);
    await q.deleteConversation({ sessionId: ALICE, conversationId: umlaut.id });

    await q.renameConversation({ sessionId: ALICE, conversationId: first.id, title: "  European capitals " });
    expect((await q.getConversation({ sessionId: ALICE, conversationId: first.id })).title).toBe("European capitals");

    // asking in the older conversation moves it to the top
    await q.createTurn({ sessionId: ALICE, conversationId: first.id, question: "Capital of France?", config });
    expect((await q.listConversations({ sessionId: ALICE }))[0]).toMatchObject({ id: first.id, turnCount: 1 });

    await q.deleteConversation({ sessionId: ALICE, conversationId: second.id });
    await expectNotFound(q.getConversation({ sessionId: ALICE, conversationId: second.id }));
  });

  it("rejects an empty title", async () => {
    const e = await q.createConversation({ sessionId: ALICE, title: "   ", kgId: "sample" }).catch((err: unknown) => err);
    expect(isAppError(e, "bad_request")).toBe(true);
  });
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

describe("ownership", () => {
  it("gives another session not_found for every operation on someone else's data", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Private", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Secret?", config });
    const src = await q.createKgSource({ sessionId: ALICE, name: "My file", kind: "upload", spec: { files: ["a.ttl"] } });

    expect((await q.listConversations({ sessionId: BOB })).some((x) => x.id === c.id)).toBe(false);
    expect(await q.listKgSources({ sessionId: BOB })).toEqual([]);
    await expectNotFound(q.getConversation({ sessionId: BOB, conversationId: c.id }));
    await expectNotFound(q.renameConversation({ sessionId: BOB, conversationId: c.id, title: "mine" }));
    await expectNotFound(q.deleteConversation({ sessionId: BOB, conversationId: c.id }));
    await expectNotFound(q.createTurn({ sessionId: BOB, conversationId: c.id, question: "q", config }));
    await expectNotFound(q.getTurn({ sessionId: BOB, turnId: t.id }));
    await expectNotFound(q.finishTurn({ sessionId: BOB, turnId: t.id, result, trace }));
    await expectNotFound(q.failTurn({ sessionId: BOB, turnId: t.id, error: { code: "internal", message: "x" } }));
    await expectNotFound(q.appendTrace({ sessionId: BOB, turnId: t.id, events: trace }));
    await expectNotFound(q.setFeedback({ sessionId: BOB, turnId: t.id, feedback: 1 }));
    await expectNotFound(q.retryTurn({ sessionId: BOB, turnId: t.id }));
    await expectNotFound(q.getKgSource({ sessionId: BOB, kgSourceId: src.id }));
    await expectNotFound(q.deleteKgSource({ sessionId: BOB, kgSourceId: src.id }));

    // nothing changed for the owner
    const mine = await q.getConversation({ sessionId: ALICE, conversationId: c.id });
    expect(mine.title).toBe("Private");
    expect(mine.turns).toHaveLength(1);
    expect(mine.turns[0]).toMatchObject({ status: "running", feedback: null, trace: [] });
    expect((await q.getKgSource({ sessionId: ALICE, kgSourceId: src.id })).spec).toEqual({ files: ["a.ttl"] });
  });
});

describe("integrity and concurrency", () => {
  it("deleting a conversation deletes its turns", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Cascade", kgId: "sample" });
    for (const question of ["a", "b", "c"]) await q.createTurn({ sessionId: ALICE, conversationId: c.id, question, config });
    expect(await db.turn.count({ where: { conversationId: c.id } })).toBe(3);
    await q.deleteConversation({ sessionId: ALICE, conversationId: c.id });
    expect(await db.turn.count({ where: { conversationId: c.id } })).toBe(0);
  });

  it("50 parallel createTurn calls all succeed with distinct consecutive positions", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Busy", kgId: "sample" });
    const turns = await Promise.all(
      Array.from({ length: 50 }, (_, i) => q.createTurn({ sessionId: ALICE, conversationId: c.id, question: `q${i}`, config })),
    );
    expect(turns.map((t) => t.index).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect((await q.getConversation({ sessionId: ALICE, conversationId: c.id })).turns).toHaveLength(50);
  });

  it(`another process's writes and locks make our writes wait, not fail (${dialect === "sqlite" ? "busy_timeout, WAL" : "row lock, retried index"})`, async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Two writers", kgId: "sample" });
    // A second process: holds the write lock for 400 ms, then inserts turns one by one while we insert ours.
    const child = spawn(process.execPath, ["--input-type=module", "-e", OTHER_PROCESS[dialect], tmp.url, c.id], { cwd: process.cwd() });
    let out = "";
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
      child.on("exit", () => reject(new Error(`other process ended early: ${out}`)));
    });

    const started = Date.now();
    const turns = await Promise.all(
      Array.from({ length: 30 }, (_, i) => q.createTurn({ sessionId: ALICE, conversationId: c.id, question: `q${i}`, config })),
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(250); // it did wait for the lock
    expect(await exited, out).toBe(0);

    const all = (await q.getConversation({ sessionId: ALICE, conversationId: c.id })).turns;
    expect(all.filter((t) => t.question.startsWith("other")).length).toBe(20);
    expect(turns).toHaveLength(30);
    expect(new Set(all.map((t) => t.index)).size).toBe(50);
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

  it("getDialogue gives questions, statuses and answers in order, only to the owner", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Dialogue", kgId: "sample" });
    const t0 = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "First?", config });
    await q.finishTurn({ sessionId: ALICE, turnId: t0.id, result, trace });
    await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Second?", config });
    expect(await q.getDialogue({ sessionId: ALICE, conversationId: c.id })).toEqual({
      id: c.id,
      title: "Dialogue",
      turns: [
        { index: 0, question: "First?", status: "done", answer: result.answer },
        { index: 1, question: "Second?", status: "running", answer: null },
      ],
    });
    await expectNotFound(q.getDialogue({ sessionId: BOB, conversationId: c.id }));
    await expectNotFound(q.finishTurn({ sessionId: BOB, turnId: t0.id, result, trace }));
    expect(await db.traceEvent.count({ where: { turnId: t0.id } })).toBe(2);
  });
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

describe("experience pool", () => {
  it("an answer marked helpful becomes a solved question of its KG, seen only by that session; taking the mark back removes it", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Pool", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Und die Hauptstadt?", config });
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    const mine = await q.listExperience({ kgKey: "sample", sessionId: ALICE });
    expect(mine).toEqual([expect.objectContaining({ question: "What is the capital of France?", sparql: result.sparql[0], source: "feedback" })]);
    expect(await q.listExperience({ kgKey: "sample", sessionId: BOB })).toEqual([]);
    expect(await q.listExperience({ kgKey: "other-kg", sessionId: ALICE })).toEqual([]);
    // marking it twice keeps one entry; a thumbs-down removes it; deleting the conversation would too
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toHaveLength(1);
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: -1 });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
    // a re-run from a corrected step makes it an earlier attempt's answer: it leaves the pool
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction: { kind: "vertex", mention: "France", iri: "http://example.org/France_country" } } });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    await q.deleteConversation({ sessionId: ALICE, conversationId: c.id });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
  });

  it("a thumbs-up on a corrected attempt gives the pool that attempt's query and question; unrating or a further attempt takes it out", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Pool corrected", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Und die Hauptstadt?", config });
    const pool = async () => (await q.listExperience({ kgKey: "sample", sessionId: ALICE })).filter((e) => e.source === "feedback").map((e) => [e.question, e.sparql]);
    // attempt 1 linked the wrong France and was marked helpful anyway; the correction replaces it
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result: { ...result, sparql: ["SELECT ?c WHERE { <http://example.org/France_club> <http://example.org/capital> ?c }"] }, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([["What is the capital of France?", "SELECT ?c WHERE { <http://example.org/France_club> <http://example.org/capital> ?c }"]]);
    const fix = { kind: "final-query" as const, query: "SELECT ?c WHERE { <http://example.org/France_country> <http://example.org/capital> ?c }" };
    await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 1, correction: fix } });
    expect(await pool()).toEqual([]);
    const second = { ...result, standaloneQuestion: "What is the capital city of the country France?", sparql: [`PREFIX ex: <http://example.org/>\n${fix.query}`] };
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result: second, trace });
    // the new attempt is rated on its own: no thumbs-up carried over, nothing in the pool until the user gives one
    expect((await q.getTurn({ sessionId: ALICE, turnId: t.id })).feedback).toBeNull();
    expect(await pool()).toEqual([]);
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([[second.standaloneQuestion, second.sparql[0]]]);
    // switching the thumbs-up off (or down) takes it out; on again puts the same attempt back, once
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: null });
    expect(await pool()).toEqual([]);
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([[second.standaloneQuestion, second.sparql[0]]]);
    // a further attempt that fails takes attempt 2 out and gives nothing, even marked helpful; attempt 2 keeps its mark
    await q.startAttempt({ sessionId: ALICE, turnId: t.id, change: { baseAttempt: 2, correction: fix } });
    expect(await pool()).toEqual([]);
    await q.failTurn({ sessionId: ALICE, turnId: t.id, error: { code: "query_failed", message: "timeout" } });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await pool()).toEqual([]);
    expect((await q.listAttempts({ sessionId: ALICE, turnId: t.id })).map((a) => [a.attempt, a.feedback])).toEqual([
      [1, 1],
      [2, 1],
      [3, 1],
    ]);
    await q.deleteConversation({ sessionId: ALICE, conversationId: c.id });
  });

  it("only a KG answer with one final query qualifies", async () => {
    const c = await q.createConversation({ sessionId: ALICE, title: "Pool 2", kgId: "sample" });
    const t = await q.createTurn({ sessionId: ALICE, conversationId: c.id, question: "Two queries?", config });
    await q.finishTurn({ sessionId: ALICE, turnId: t.id, result: { ...result, sparql: ["SELECT * WHERE { ?s ?p ?o }", "ASK {}"] }, trace });
    await q.setFeedback({ sessionId: ALICE, turnId: t.id, feedback: 1 });
    expect(await q.listExperience({ kgKey: "sample", sessionId: ALICE })).toEqual([]);
  });

  it("imports benchmark items (again: replaced), shows them to every session, and clears them by dataset", async () => {
    const items = [
      { itemId: "bench:1", question: "Who wrote Dune?", sparql: "SELECT ?a WHERE { <http://ex.org/Dune> <http://ex.org/author> ?a }" },
      { itemId: "bench:2", question: "When was Dune published?", sparql: "SELECT ?d WHERE { <http://ex.org/Dune> <http://ex.org/date> ?d }" },
    ];
    expect(await q.importExperience({ kgKey: "files:/x.ttl", dataset: "bench", split: "train", items })).toEqual({ imported: 2 });
    await q.importExperience({ kgKey: "files:/x.ttl", dataset: "bench", split: "test", items: items.slice(0, 1) });
    const pool = await q.listExperience({ kgKey: "files:/x.ttl", sessionId: BOB });
    expect(pool.map((e) => [e.itemId, e.split, e.source]).sort()).toEqual([["bench:1", "test", "import"], ["bench:2", "train", "import"]]);
    expect(await q.listExperience({ kgKey: "files:/x.ttl" })).toHaveLength(2);
    await expect(q.importExperience({ kgKey: "files:/x.ttl", dataset: "bench", items: [{ itemId: "x", question: " ", sparql: "ASK {}" }] })).rejects.toThrow(/Invalid items/);
    expect(await q.clearImportedExperience({ kgKey: "files:/x.ttl", dataset: "other" })).toBe(0);
    expect(await q.clearImportedExperience({ kgKey: "files:/x.ttl", dataset: "bench" })).toBe(2);
  });
});
