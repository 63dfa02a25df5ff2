// Conversations of a session: create, list (with title search), read (with their turns), rename, delete; and the
// dialogue a new turn is asked in.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Prisma } from "@/generated/prisma/client";
import { answerSchema, TURN_STATUSES } from "./json";
import type { ConversationRecord, ConversationSummary, DialogueRecord } from "./records";
import { NO_SNAPSHOT, notFound, parseColumn, parseInput, sessionIdSchema, titleSchema, toTurnRecord, traceEventsOf, type QueryContext } from "./rows";

/** The conversation queries bound to one client. */
export function conversationQueries({ db, sql, raw }: QueryContext) {
  async function createConversation(args: { sessionId: string; title: string; kgId: string }): Promise<ConversationSummary> {
    const sessionId = parseInput(sessionIdSchema, args.sessionId, "session");
    const title = parseInput(titleSchema, args.title, "title");
    const kgId = parseInput(z.string().min(1), args.kgId, "KG id");
    // raw, like every statement of a turn's hot path (lib/db/raw-sql.ts)
    const id = randomUUID();
    const at = new Date();
    await raw.insertConversation(sql, { id, sessionId, title, kgId, at });
    return { id, title, kgId, createdAt: at, updatedAt: at, turnCount: 0 };
  }

  /** Newest activity first; `search` matches the title, case-insensitively (Unicode), on SQLite and PostgreSQL alike. */
  async function listConversations(args: { sessionId: string; search?: string; limit?: number }): Promise<ConversationSummary[]> {
    const search = args.search?.trim();
    const limit = Math.min(Math.max(args.limit ?? 100, 1), 500);
    const orderBy = [{ updatedAt: "desc" as const }, { id: "desc" as const }];
    let where: Prisma.ConversationWhereInput = { sessionId: args.sessionId };
    if (search) {
      // Matched here rather than in SQL: SQLite's LIKE folds ASCII only (and treats % and _ as wildcards), PostgreSQL's
      // LIKE is case-sensitive and ILIKE folds by the server's locale. A session's titles are few and short.
      const needle = search.toLocaleLowerCase();
      const titles = await db.conversation.findMany({ where, orderBy, select: { id: true, title: true } });
      where = { sessionId: args.sessionId, id: { in: titles.filter((t) => t.title.toLocaleLowerCase().includes(needle)).slice(0, limit).map((t) => t.id) } };
    }
    const rows = await db.conversation.findMany({ where, orderBy, take: limit, include: { _count: { select: { turns: true } } } });
    return rows.map((r) => ({
      id: r.id,
      title: r.title,
      kgId: r.kgId,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
      turnCount: r._count.turns,
    }));
  }

  async function getConversation(args: { sessionId: string; conversationId: string }): Promise<ConversationRecord> {
    const row = await db.conversation.findFirst({
      where: { id: args.conversationId, sessionId: args.sessionId },
      include: { turns: { orderBy: { index: "asc" }, omit: NO_SNAPSHOT, include: { attempts: { orderBy: { attempt: "asc" }, omit: NO_SNAPSHOT } } } },
    });
    if (!row) throw notFound("conversation", args.conversationId);
    const events = await traceEventsOf(db, row.turns.map((t) => t.id));
    return {
      id: row.id,
      title: row.title,
      kgId: row.kgId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      turns: row.turns.map((t) => toTurnRecord(t, events.get(t.id), t.attempts)),
    };
  }

  /** The title and earlier questions and answers, for the context of a new turn: no traces read or parsed. */
  async function getDialogue(args: { sessionId: string; conversationId: string }): Promise<DialogueRecord> {
    const rows = await raw.dialogue(sql, { sessionId: args.sessionId, conversationId: args.conversationId });
    if (rows.length === 0) throw notFound("conversation", args.conversationId);
    return {
      id: args.conversationId,
      title: rows[0].title,
      turns: rows
        .filter((t) => t.turnId !== null)
        .map((t) => {
          const answer = typeof t.answer === "string" ? (JSON.parse(t.answer) as unknown) : t.answer;
          return {
            index: Number(t.index),
            question: String(t.question),
            status: parseColumn(z.enum(TURN_STATUSES), t.status, "status", String(t.turnId)),
            answer: answer === null || answer === undefined ? null : parseColumn(answerSchema, answer, "answer", String(t.turnId)),
          };
        }),
    };
  }

  async function renameConversation(args: { sessionId: string; conversationId: string; title: string }): Promise<void> {
    const title = parseInput(titleSchema, args.title, "title");
    const { count } = await db.conversation.updateMany({
      where: { id: args.conversationId, sessionId: args.sessionId },
      data: { title },
    });
    if (count === 0) throw notFound("conversation", args.conversationId);
  }

  /** Deletes the conversation and (by cascade) its turns. */
  async function deleteConversation(args: { sessionId: string; conversationId: string }): Promise<void> {
    const { count } = await db.conversation.deleteMany({ where: { id: args.conversationId, sessionId: args.sessionId } });
    if (count === 0) throw notFound("conversation", args.conversationId);
  }

  return { createConversation, listConversations, getConversation, getDialogue, renameConversation, deleteConversation };
}
