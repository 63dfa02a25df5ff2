// Share links of a conversation: made, read and revoked by the owner's session only; a link's id opens the
// conversation read-only for anyone holding it (lib/server/share.ts signs the id into the URL), until it is revoked.
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import type { ConversationRecord } from "./records";
import { parseInput, sessionIdSchema, type QueryContext } from "./rows";

export interface ShareRecord {
  id: string;
  conversationId: string;
  createdAt: Date;
}

type GetConversation = (args: { sessionId: string; conversationId: string }) => Promise<ConversationRecord>;

/** The share-link queries bound to one client; `getConversation` reads the shared conversation as its owner would. */
export function shareQueries({ db }: QueryContext, getConversation: GetConversation) {
  /** The conversation's link that works now, if any. */
  async function getShare(args: { sessionId: string; conversationId: string }): Promise<ShareRecord | null> {
    const row = await db.shareLink.findFirst({
      where: { conversationId: args.conversationId, sessionId: args.sessionId, revokedAt: null },
      orderBy: { createdAt: "desc" },
    });
    return row && { id: row.id, conversationId: row.conversationId, createdAt: row.createdAt };
  }

  /** The working link of the caller's conversation, made when there is none (another session's conversation: not found). */
  async function createShare(args: { sessionId: string; conversationId: string }): Promise<ShareRecord> {
    const sessionId = parseInput(sessionIdSchema, args.sessionId, "session");
    await getConversation({ sessionId, conversationId: args.conversationId }); // ownership, or not_found
    const existing = await getShare({ sessionId, conversationId: args.conversationId });
    if (existing) return existing;
    const row = await db.shareLink.create({ data: { id: randomBytes(16).toString("base64url"), conversationId: args.conversationId, sessionId } });
    return { id: row.id, conversationId: row.conversationId, createdAt: row.createdAt };
  }

  /** Stops every link of the caller's conversation; returns how many worked until now. */
  async function revokeShares(args: { sessionId: string; conversationId: string }): Promise<number> {
    const { count } = await db.shareLink.updateMany({
      where: { conversationId: args.conversationId, sessionId: args.sessionId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return count;
  }

  /** The conversation a working link shows; a revoked or unknown link (or a deleted conversation) is not_found. */
  async function getSharedConversation(args: { shareId: string }): Promise<ConversationRecord> {
    const row = await db.shareLink.findFirst({ where: { id: args.shareId, revokedAt: null } });
    if (!row) throw new AppError("not_found", "This share link does not work: it was revoked, or it never existed.");
    return getConversation({ sessionId: row.sessionId, conversationId: row.conversationId });
  }

  return { getShare, createShare, revokeShares, getSharedConversation };
}
