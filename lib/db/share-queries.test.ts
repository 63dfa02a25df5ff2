// Share links on a fresh database (SQLite; PostgreSQL with TEST_DB_DIALECT=postgres): made once per conversation by its
// owner only, opening that conversation and no other, and gone once revoked or when the conversation is deleted.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDb, testDialect, type TempDb } from "@/lib/server/testing/temp-db";
import type { Queries } from "./queries";
import { ALICE, BOB, expectNotFound } from "./testing/query-fixtures";

let tmp: TempDb;
let q: Queries;

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-share-", testDialect());
  q = tmp.queries;
});
afterAll(async () => {
  await tmp?.close();
});

describe("share links", () => {
  it("are made by the owner, open only their conversation, and stop working when revoked", async () => {
    const shared = await q.createConversation({ sessionId: ALICE, title: "Shared one", kgId: "sample" });
    const other = await q.createConversation({ sessionId: ALICE, title: "Private one", kgId: "sample" });
    expect(await q.getShare({ sessionId: ALICE, conversationId: shared.id })).toBeNull();

    const link = await q.createShare({ sessionId: ALICE, conversationId: shared.id });
    expect(link.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    // asking again gives the same working link
    expect((await q.createShare({ sessionId: ALICE, conversationId: shared.id })).id).toBe(link.id);
    expect((await q.getShare({ sessionId: ALICE, conversationId: shared.id }))?.id).toBe(link.id);

    const seen = await q.getSharedConversation({ shareId: link.id });
    expect(seen.id).toBe(shared.id);
    expect(seen.id).not.toBe(other.id);

    // another session can neither make nor see nor revoke a link of this conversation
    await expectNotFound(q.createShare({ sessionId: BOB, conversationId: shared.id }));
    expect(await q.getShare({ sessionId: BOB, conversationId: shared.id })).toBeNull();
    expect(await q.revokeShares({ sessionId: BOB, conversationId: shared.id })).toBe(0);
    expect((await q.getSharedConversation({ shareId: link.id })).id).toBe(shared.id);

    expect(await q.revokeShares({ sessionId: ALICE, conversationId: shared.id })).toBe(1);
    await expectNotFound(q.getSharedConversation({ shareId: link.id }));
    expect(await q.getShare({ sessionId: ALICE, conversationId: shared.id })).toBeNull();
    // a new link after revoking is a new id: the old URL stays dead
    const again = await q.createShare({ sessionId: ALICE, conversationId: shared.id });
    expect(again.id).not.toBe(link.id);
    await expectNotFound(q.getSharedConversation({ shareId: link.id }));

    // deleting the conversation deletes its links
    await q.deleteConversation({ sessionId: ALICE, conversationId: shared.id });
    await expectNotFound(q.getSharedConversation({ shareId: again.id }));
    await expectNotFound(q.getSharedConversation({ shareId: "no-such-link" }));
  });
});
