// The query functions as a whole on a fresh database (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres): every
// operation scoped to its session, cascades, and concurrency (in this process and with another process writing).
import { spawn } from "node:child_process";
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

