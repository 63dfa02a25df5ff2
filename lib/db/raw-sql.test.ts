// Each hand-written statement on SQLite, and on PostgreSQL when TEST_DATABASE_URL names a server (CI starts one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPostgresUrl } from "@/lib/db/testing/postgres";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";
import { driverOf, type Dialect } from "./client";
import { jsonbSafe, rawSql } from "./raw-sql";

const postgresSkip = testPostgresUrl() ? undefined : "no TEST_DATABASE_URL (a PostgreSQL server to create test databases on)";
if (postgresSkip) console.warn(`[postgres] raw SQL suite skipped: ${postgresSkip}`);
const DIALECTS: Dialect[] = postgresSkip ? ["sqlite"] : ["sqlite", "postgres"];

describe("jsonbSafe", () => {
  it("replaces escaped NUL characters only, keeping the JSON valid and equal otherwise", () => {
    const value = { a: "x\u0000y", b: "back\\u0000slash", c: ["\u0000"], d: "é \u0001" };
    const safe = jsonbSafe(JSON.stringify(value));
    expect(JSON.parse(safe)).toEqual({ a: "x\ufffdy", b: "back\\u0000slash", c: ["\ufffd"], d: "é \u0001" });
    expect(jsonbSafe('{"a":"plain"}')).toBe('{"a":"plain"}');
  });
});

describe.each(DIALECTS)("raw statements on %s", (dialect) => {
  let tmp: TempDb;
  const raw = rawSql(dialect);
  const OWNER = "session-owner";
  const OTHER = "session-other";
  let conversationId: string;

  beforeAll(async () => {
    tmp = await createTempDb(`chatty-kg-raw-${dialect}-`, dialect);
    conversationId = (await tmp.queries.createConversation({ sessionId: OWNER, title: "Raw", kgId: "sample" })).id;
  });
  afterAll(async () => tmp?.close());

  const insert = (id: string, sessionId = OWNER, at = new Date()) =>
    raw.insertTurn(driverOf(tmp.db), { id, sessionId, conversationId, question: `q ${id}`, configJson: JSON.stringify({ kg: { id: "sample" }, n: "\u0000" }), createdAt: at });

  it("insertTurn: next index, touches the conversation, nothing for another session", async () => {
    const before = (await tmp.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).updatedAt;
    const at = new Date(before.getTime() + 60_000);
    expect(await insert("t0", OWNER, at)).toBe(0);
    expect(await insert("t1")).toBe(1);
    expect(await insert("x", OTHER)).toBeUndefined();
    const turns = await tmp.db.turn.findMany({ where: { conversationId }, orderBy: { index: "asc" } });
    expect(turns.map((t) => [t.id, t.index, t.status, t.trace])).toEqual([
      ["t0", 0, "running", []],
      ["t1", 1, "running", []],
    ]);
    expect(turns[0].createdAt.toISOString()).toBe(at.toISOString());
    expect((await tmp.db.conversation.findUniqueOrThrow({ where: { id: conversationId } })).updatedAt.getTime()).toBeGreaterThan(before.getTime());
  });

  it("isUniqueViolation: a taken (turn, seq) is one, other errors are not", async () => {
    const db = driverOf(tmp.db);
    const p = dialect === "postgres" ? ["$1", "$2"] : ["?", "?"];
    const dup = await db.execute(`INSERT INTO "TraceEvent" ("turnId", "seq", "json") VALUES (${p[0]}, 0, '1'), (${p[1]}, 0, '2')`, ["t0", "t0"]).catch((e: unknown) => e);
    expect(dup).toBeInstanceOf(Error);
    expect(raw.isUniqueViolation(dup)).toBe(true);
    const other = await db.execute(`INSERT INTO "TraceEvent" ("turnId", "seq", "json") VALUES (${p[0]}, 0, '1')`, ["no-such-turn"]).catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Error);
    expect(raw.isUniqueViolation(other)).toBe(false);
  });

  it("appendTraceEvents: appends after the last event, keeps each event's JSON text as written, owner only", async () => {
    const texts = ['{"type":"a","note":"é \\u0000 \\"q\\""}', '{"type":"b","n":1.50}', '{"type":"c"}', '{"type":"d"}'];
    expect(await raw.appendTraceEvents(driverOf(tmp.db), { sessionId: OWNER, turnId: "t1", json: `[${texts.slice(0, 2).join(",")}]`, fullTrace: false })).toBe(2);
    expect(await raw.appendTraceEvents(driverOf(tmp.db), { sessionId: OWNER, turnId: "t1", json: `[${texts[2]}]`, fullTrace: false })).toBe(1);
    // a full trace: only the events not stored yet
    expect(await raw.appendTraceEvents(driverOf(tmp.db), { sessionId: OWNER, turnId: "t1", json: `[${texts.join(",")}]`, fullTrace: true })).toBe(1);
    expect(await raw.appendTraceEvents(driverOf(tmp.db), { sessionId: OTHER, turnId: "t1", json: `[${texts[0]}]`, fullTrace: false })).toBe(0);
    const rows = await tmp.db.traceEvent.findMany({ where: { turnId: "t1" }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => [r.seq, r.json])).toEqual(texts.map((t, i) => [i, t]));
  });

  it("insertConversation and dialogue: the title and turns in order, nothing for another session or an unknown id", async () => {
    const db = driverOf(tmp.db);
    const at = new Date("2026-02-03T04:05:06.789Z");
    await raw.insertConversation(db, { id: "c-raw", sessionId: OWNER, title: "Ünïcode title", kgId: "sample", at });
    const stored = await tmp.db.conversation.findUniqueOrThrow({ where: { id: "c-raw" } });
    expect([stored.title, stored.createdAt.toISOString(), stored.updatedAt.toISOString()]).toEqual(["Ünïcode title", at.toISOString(), at.toISOString()]);
    expect(await raw.dialogue(db, { sessionId: OWNER, conversationId: "c-raw" })).toEqual([
      { title: "Ünïcode title", turnId: null, index: null, question: null, status: null, answer: null },
    ]);
    const rows = await raw.dialogue(db, { sessionId: OWNER, conversationId });
    expect(rows.map((r) => [r.title, r.index, r.question, r.status])).toEqual([
      ["Raw", 0, "q t0", "running"],
      ["Raw", 1, "q t1", "running"],
    ]);
    expect(await raw.dialogue(db, { sessionId: OTHER, conversationId })).toEqual([]);
    expect(await raw.dialogue(db, { sessionId: OWNER, conversationId: "nope" })).toEqual([]);
  });

  it("updateOwnedTurn: sets JSON, text and date columns, returns the row; another session changes nothing", async () => {
    const finishedAt = new Date("2026-01-02T03:04:05.678Z");
    const set = { status: "done", source: "kg", error: null, finishedAt, answer: JSON.stringify({ kind: "items", items: [{ type: "literal", value: "a\u0000b" }] }), naturalAnswer: "A.", stats: '{"ms":5}' };
    expect(await raw.updateOwnedTurn(driverOf(tmp.db), { sessionId: OTHER, turnId: "t0", set })).toEqual([]);
    const [row] = await raw.updateOwnedTurn(driverOf(tmp.db), { sessionId: OWNER, turnId: "t0", set });
    expect(row).toMatchObject({ id: "t0", status: "done", naturalAnswer: "A." });
    const stored = await tmp.db.turn.findUniqueOrThrow({ where: { id: "t0" } });
    expect(stored.finishedAt?.toISOString()).toBe(finishedAt.toISOString());
    expect(stored.stats).toEqual({ ms: 5 });
    // jsonb cannot hold U+0000: PostgreSQL stores U+FFFD in its place
    expect(stored.answer).toEqual({ kind: "items", items: [{ type: "literal", value: dialect === "postgres" ? "a\ufffdb" : "a\u0000b" }] });
  });
});
