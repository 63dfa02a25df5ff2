"use server";
// Server actions for saved conversations: list, open, rename, delete, feedback. Each parses its input with zod,
// scopes every read and write to the caller's session, and returns errors as data (Next hides thrown messages).
import { z } from "zod";
import {
  deleteConversationSchema,
  getConversationSchema,
  listConversationsSchema,
  renameConversationSchema,
  setFeedbackSchema,
  shareLinkSchema,
  type ShareLinkDto,
  type ActionResult,
  type ConversationDto,
  type ConversationSummaryDto,
} from "@/lib/api/contract";
import { getQueries } from "@/lib/db/queries";
import { toConversationDto, toSummaryDto } from "@/lib/server/export";
import { parseWith } from "@/lib/server/http";
import { logError, safeError } from "@/lib/server/security";
import { getSessionId } from "@/lib/server/session";
import { shareLinksOff, sharePath } from "@/lib/server/share";
import type { ShareRecord } from "@/lib/db/queries";

const shareDto = (off: string | null, link: ShareRecord | null): ShareLinkDto => ({
  off,
  path: link && !off ? sharePath(link.id) : null,
  createdAt: link && !off ? link.createdAt.toISOString() : null,
});

async function act<S extends z.ZodType, T>(schema: S, input: unknown, work: (sessionId: string, args: z.output<S>) => Promise<T>): Promise<ActionResult<T>> {
  try {
    const args = parseWith(schema, input, "input");
    return { ok: true, data: await work(await getSessionId(), args) };
  } catch (e) {
    const err = safeError(e);
    if (err.code === "internal") logError("[chatty-kg] server action failed:", e);
    return { ok: false, error: err.toJSON() };
  }
}

export async function listConversations(input: { search?: string } = {}): Promise<ActionResult<ConversationSummaryDto[]>> {
  return act(listConversationsSchema, input, async (sessionId, { search }) =>
    (await getQueries().listConversations({ sessionId, search })).map(toSummaryDto),
  );
}

export async function getConversation(input: { conversationId: string }): Promise<ActionResult<ConversationDto>> {
  return act(getConversationSchema, input, async (sessionId, { conversationId }) =>
    toConversationDto(await getQueries().getConversation({ sessionId, conversationId })),
  );
}

export async function renameConversation(input: { conversationId: string; title: string }): Promise<ActionResult<null>> {
  return act(renameConversationSchema, input, async (sessionId, { conversationId, title }) => {
    await getQueries().renameConversation({ sessionId, conversationId, title });
    return null;
  });
}

export async function deleteConversation(input: { conversationId: string }): Promise<ActionResult<null>> {
  return act(deleteConversationSchema, input, async (sessionId, { conversationId }) => {
    await getQueries().deleteConversation({ sessionId, conversationId });
    return null;
  });
}

export async function setFeedback(input: { turnId: string; feedback: 1 | -1 | null }): Promise<ActionResult<null>> {
  return act(setFeedbackSchema, input, async (sessionId, { turnId, feedback }) => {
    await getQueries().setFeedback({ sessionId, turnId, feedback });
    return null;
  });
}

/** The conversation's working share link, if any (and whether this server offers links at all). */
export async function getShareLink(input: { conversationId: string }): Promise<ActionResult<ShareLinkDto>> {
  return act(shareLinkSchema, input, async (sessionId, { conversationId }) => {
    await getQueries().getConversation({ sessionId, conversationId }); // another session's conversation: not_found
    const off = shareLinksOff();
    return shareDto(off, off ? null : await getQueries().getShare({ sessionId, conversationId }));
  });
}

/** Makes (or returns) the read-only link of one of the caller's conversations. */
export async function createShareLink(input: { conversationId: string }): Promise<ActionResult<ShareLinkDto>> {
  return act(shareLinkSchema, input, async (sessionId, { conversationId }) => {
    const off = shareLinksOff();
    if (off) return shareDto(off, null);
    return shareDto(null, await getQueries().createShare({ sessionId, conversationId }));
  });
}

/** Stops the conversation's links: their pages then say the link does not work. */
export async function revokeShareLink(input: { conversationId: string }): Promise<ActionResult<ShareLinkDto>> {
  return act(shareLinkSchema, input, async (sessionId, { conversationId }) => {
    await getQueries().revokeShares({ sessionId, conversationId });
    return shareDto(shareLinksOff(), null);
  });
}
