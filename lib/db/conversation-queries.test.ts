// Conversation queries on a fresh database (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres): create, list, search,
// rename, delete, and the dialogue a new turn is asked in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
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
