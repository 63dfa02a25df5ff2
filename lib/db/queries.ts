// All database reads and writes of the app: conversations, turns and KG sources, always scoped to a browser session.
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";
import { Prisma } from "@/generated/prisma/client";
import { getDb, type PrismaClient } from "./client";
import {
  answerSchema,
  KG_SOURCE_KINDS,
  kgSourceSpecSchema,
  sparqlListSchema,
  statsSchema,
  traceSchema,
  turnConfigSchema,
  turnErrorSchema,
  TURN_SOURCES,
  TURN_STATUSES,
  type KgSourceKind,
  type TurnConfig,
  type TurnConfigInput,
  type TurnError,
  type TurnSource,
  type TurnStatus,
} from "./json";

export interface ConversationSummary {
  id: string;
  title: string;
  kgId: string;
  createdAt: Date;
  updatedAt: Date;
  turnCount: number;
}

export interface TurnRecord {
  id: string;
  conversationId: string;
  index: number;
  question: string;
  status: TurnStatus;
  answer: TurnResult["answer"] | null;
  naturalAnswer: string | null;
  source: TurnSource | null;
  standaloneQuestion: string | null;
  error: TurnError | null;
  trace: DerivationEvent[];
  stats: TurnResult["stats"] | null;
  config: TurnConfig;
  sparql: string[];
  feedback: 1 | -1 | null;
  createdAt: Date;
  finishedAt: Date | null;
}

export interface ConversationRecord extends Omit<ConversationSummary, "turnCount"> {
  turns: TurnRecord[];
}

export interface KgSourceRecord {
  id: string;
  name: string;
  kind: KgSourceKind;
  spec: Record<string, unknown>;
  createdAt: Date;
}

const MAX_TITLE = 200;
const titleSchema = z.string().trim().min(1).max(MAX_TITLE);
const sessionIdSchema = z.string().min(1).max(200);
// createTurn/appendTrace read then write; SQLite runs one write transaction at a time, so allow for queueing.
const TX_OPTIONS = { maxWait: 20_000, timeout: 20_000 } as const;
// Another process may take the next turn index between our read and insert; a unique violation means "try again".
const CREATE_TURN_ATTEMPTS = 5;

type Db = PrismaClient;
type Tx = Prisma.TransactionClient;
type TurnRow = Awaited<ReturnType<Db["turn"]["findFirstOrThrow"]>>;

function parseInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("bad_request", `Invalid ${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

// Rows written by older code or by hand must not crash a page: a broken column becomes an internal error naming it.
function parseColumn<T>(schema: z.ZodType<T>, value: unknown, column: string, turnId: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new AppError("internal", `Stored ${column} of turn ${turnId} is malformed.`, {
      details: { issues: parsed.error.issues.slice(0, 3).map((i) => i.message) },
    });
  }
  return parsed.data;
}

function toTurnRecord(row: TurnRow): TurnRecord {
  const nullable = <T>(schema: z.ZodType<T>, value: unknown, column: string): T | null =>
    value === null ? null : parseColumn(schema, value, column, row.id);
  return {
    id: row.id,
    conversationId: row.conversationId,
    index: row.index,
    question: row.question,
    status: parseColumn(z.enum(TURN_STATUSES), row.status, "status", row.id),
    answer: nullable(answerSchema, row.answer, "answer"),
    naturalAnswer: row.naturalAnswer,
    source: nullable(z.enum(TURN_SOURCES), row.source, "source"),
    standaloneQuestion: row.standaloneQuestion,
    error: nullable(turnErrorSchema, row.error, "error"),
    trace: parseColumn(traceSchema, row.trace, "trace", row.id),
    stats: nullable(statsSchema, row.stats, "stats"),
    config: parseColumn(turnConfigSchema, row.config, "config", row.id),
    sparql: nullable(sparqlListSchema, row.sparql, "sparql") ?? [],
    feedback: row.feedback === 1 ? 1 : row.feedback === -1 ? -1 : null,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  };
}

function asJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

function notFound(what: "conversation" | "turn" | "KG source", id: string): AppError {
  // Same message whether the id does not exist or belongs to another session: ids do not leak across sessions.
  return new AppError("not_found", `No ${what} with id ${id}.`);
}

async function ownedConversation(db: Db | Tx, sessionId: string, conversationId: string) {
  const conversation = await db.conversation.findFirst({ where: { id: conversationId, sessionId } });
  if (!conversation) throw notFound("conversation", conversationId);
  return conversation;
}

async function ownedTurn(db: Db | Tx, sessionId: string, turnId: string): Promise<TurnRow> {
  const turn = await db.turn.findFirst({ where: { id: turnId, conversation: { sessionId } } });
  if (!turn) throw notFound("turn", turnId);
  return turn;
}

function isUniqueViolation(e: unknown): boolean {
  return e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002";
}

/** The query functions bound to one Prisma client (the app passes getDb(); tests pass a client on a temp file). */
export function makeQueries(db: Db) {
  async function createConversation(args: { sessionId: string; title: string; kgId: string }): Promise<ConversationSummary> {
    const sessionId = parseInput(sessionIdSchema, args.sessionId, "session");
    const title = parseInput(titleSchema, args.title, "title");
    const kgId = parseInput(z.string().min(1), args.kgId, "KG id");
    const row = await db.conversation.create({ data: { sessionId, title, kgId } });
    return { id: row.id, title: row.title, kgId: row.kgId, createdAt: row.createdAt, updatedAt: row.updatedAt, turnCount: 0 };
  }

  /** Newest activity first; `search` matches the title (case-insensitive for ASCII, as SQLite LIKE). */
  async function listConversations(args: { sessionId: string; search?: string; limit?: number }): Promise<ConversationSummary[]> {
    const search = args.search?.trim();
    const limit = Math.min(Math.max(args.limit ?? 100, 1), 500);
    // Prisma's SQLite `contains` is a LIKE without ESCAPE, so % and _ act as wildcards: LIKE then only pre-filters
    // (it matches a superset), the exact substring test runs here, and the limit applies after it.
    const wildcard = search !== undefined && /[%_]/.test(search);
    const rows = await db.conversation.findMany({
      where: { sessionId: args.sessionId, ...(search ? { title: { contains: search } } : {}) },
      orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
      take: wildcard ? undefined : limit,
      include: { _count: { select: { turns: true } } },
    });
    const matching = wildcard ? rows.filter((r) => r.title.toLowerCase().includes(search.toLowerCase())).slice(0, limit) : rows;
    return matching.map((r) => ({
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
      include: { turns: { orderBy: { index: "asc" } } },
    });
    if (!row) throw notFound("conversation", args.conversationId);
    return {
      id: row.id,
      title: row.title,
      kgId: row.kgId,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      turns: row.turns.map(toTurnRecord),
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

  /** Persists the question before the pipeline runs (status "running"), at the next position of the conversation. */
  async function createTurn(args: {
    sessionId: string;
    conversationId: string;
    question: string;
    config: TurnConfigInput;
  }): Promise<TurnRecord> {
    // SQLite (libsql) stores text only up to a NUL character: drop C0 controls rather than lose the rest of the question
    // eslint-disable-next-line no-control-regex
    const clean = typeof args.question === "string" ? args.question.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "") : args.question;
    const question = parseInput(z.string().trim().min(1).max(10_000), clean, "question");
    const config = parseInput(turnConfigSchema, args.config, "turn config");
    for (let attempt = 1; ; attempt++) {
      try {
        const row = await db.$transaction(async (tx) => {
          await ownedConversation(tx, args.sessionId, args.conversationId);
          const last = await tx.turn.findFirst({
            where: { conversationId: args.conversationId },
            orderBy: { index: "desc" },
            select: { index: true },
          });
          const created = await tx.turn.create({
            data: {
              conversationId: args.conversationId,
              index: last ? last.index + 1 : 0,
              question,
              status: "running",
              trace: [],
              config: asJson(config),
            },
          });
          await tx.conversation.update({ where: { id: args.conversationId }, data: { updatedAt: new Date() } });
          return created;
        }, TX_OPTIONS);
        return toTurnRecord(row);
      } catch (e) {
        if (isUniqueViolation(e) && attempt < CREATE_TURN_ATTEMPTS) continue;
        throw e;
      }
    }
  }

  async function getTurn(args: { sessionId: string; turnId: string }): Promise<TurnRecord> {
    return toTurnRecord(await ownedTurn(db, args.sessionId, args.turnId));
  }

  /** Stores the pipeline's result and full trace; a result with source "failed" marks the turn failed. */
  async function finishTurn(args: {
    sessionId: string;
    turnId: string;
    result: TurnResult;
    trace: DerivationEvent[];
  }): Promise<TurnRecord> {
    await ownedTurn(db, args.sessionId, args.turnId);
    const { result } = args;
    const answer = parseInput(answerSchema, result.answer, "answer");
    const stats = parseInput(statsSchema, result.stats, "stats");
    const trace = parseInput(traceSchema, args.trace, "trace");
    const error = result.error === undefined ? undefined : parseInput(turnErrorSchema, result.error, "error");
    const row = await db.turn.update({
      where: { id: args.turnId },
      data: {
        status: result.source === "failed" ? "failed" : "done",
        answer: asJson(answer),
        source: result.source,
        naturalAnswer: result.naturalAnswer ?? null,
        standaloneQuestion: result.standaloneQuestion ?? null,
        error: error === undefined ? Prisma.DbNull : asJson(error),
        trace: asJson(trace),
        stats: asJson(stats),
        sparql: asJson(parseInput(sparqlListSchema, result.sparql, "sparql")),
        finishedAt: new Date(),
      },
    });
    return toTurnRecord(row);
  }

  /** For a pipeline that threw (unexpected failure) or was cancelled: keeps the question, records why. */
  async function failTurn(args: {
    sessionId: string;
    turnId: string;
    error: TurnError;
    trace?: DerivationEvent[];
    status?: Extract<TurnStatus, "failed" | "interrupted">;
  }): Promise<TurnRecord> {
    await ownedTurn(db, args.sessionId, args.turnId);
    const error = parseInput(turnErrorSchema, args.error, "error");
    const row = await db.turn.update({
      where: { id: args.turnId },
      data: {
        status: args.status ?? "failed",
        source: "failed",
        error: asJson(error),
        ...(args.trace ? { trace: asJson(parseInput(traceSchema, args.trace, "trace")) } : {}),
        finishedAt: new Date(),
      },
    });
    return toTurnRecord(row);
  }

  /** Adds events to a running turn's stored trace, so a reload mid-turn shows progress so far. */
  async function appendTrace(args: { sessionId: string; turnId: string; events: DerivationEvent[] }): Promise<void> {
    const events = parseInput(traceSchema, args.events, "trace events");
    if (events.length === 0) return;
    await db.$transaction(async (tx) => {
      const turn = await ownedTurn(tx, args.sessionId, args.turnId);
      const trace = parseColumn(traceSchema, turn.trace, "trace", turn.id);
      await tx.turn.update({ where: { id: turn.id }, data: { trace: asJson([...trace, ...events]) } });
    }, TX_OPTIONS);
  }

  /** +1 / -1 from the user; null clears it. */
  async function setFeedback(args: { sessionId: string; turnId: string; feedback: 1 | -1 | null }): Promise<void> {
    const feedback = parseInput(z.union([z.literal(1), z.literal(-1), z.null()]), args.feedback, "feedback");
    await ownedTurn(db, args.sessionId, args.turnId);
    await db.turn.update({ where: { id: args.turnId }, data: { feedback } });
  }

  /**
   * Resets a failed or interrupted turn to "running" (clearing its previous outcome) so the pipeline can re-run it.
   * `config`: what the retry runs with (parameters, KG, model), stored in place of the old one; absent keeps it.
   */
  async function retryTurn(args: { sessionId: string; turnId: string; config?: TurnConfigInput }): Promise<TurnRecord> {
    const config = args.config === undefined ? undefined : parseInput(turnConfigSchema, args.config, "turn config");
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    if (turn.status !== "failed" && turn.status !== "interrupted") {
      throw new AppError("bad_request", `Only failed or interrupted turns can be retried; this one is ${turn.status}.`);
    }
    // The status in the filter makes two simultaneous retries start the pipeline only once.
    const { count } = await db.turn.updateMany({
      where: { id: turn.id, status: turn.status },
      data: {
        status: "running",
        answer: Prisma.DbNull,
        naturalAnswer: null,
        source: null,
        standaloneQuestion: null,
        error: Prisma.DbNull,
        trace: [],
        stats: Prisma.DbNull,
        sparql: Prisma.DbNull,
        feedback: null,
        finishedAt: null,
        ...(config ? { config: asJson(config) } : {}),
      },
    });
    if (count === 0) throw new AppError("bad_request", "This turn is already being retried.");
    return toTurnRecord(await db.turn.findUniqueOrThrow({ where: { id: turn.id } }));
  }

  /**
   * On server start: turns left "running"/"pending" by a previous process can never finish; mark them interrupted.
   * Not session-scoped on purpose (it is housekeeping, not a user action). Returns how many turns changed.
   */
  async function markInterruptedTurns(): Promise<number> {
    const { count } = await db.turn.updateMany({
      where: { status: { in: ["running", "pending"] } },
      data: {
        status: "interrupted",
        source: "failed",
        error: asJson({ code: "aborted", message: "The server stopped before this turn finished." } satisfies TurnError),
        finishedAt: new Date(),
      },
    });
    return count;
  }

  async function createKgSource(args: {
    sessionId: string;
    name: string;
    kind: KgSourceKind;
    spec: Record<string, unknown>;
  }): Promise<KgSourceRecord> {
    const sessionId = parseInput(sessionIdSchema, args.sessionId, "session");
    const name = parseInput(titleSchema, args.name, "KG name");
    const kind = parseInput(z.enum(KG_SOURCE_KINDS), args.kind, "KG kind");
    const spec = parseInput(kgSourceSpecSchema, args.spec, "KG spec");
    const row = await db.kgSource.create({ data: { sessionId, name, kind, spec: asJson(spec) } });
    return toKgSourceRecord(row);
  }

  async function listKgSources(args: { sessionId: string }): Promise<KgSourceRecord[]> {
    const rows = await db.kgSource.findMany({ where: { sessionId: args.sessionId }, orderBy: [{ createdAt: "desc" }, { id: "desc" }] });
    return rows.map(toKgSourceRecord);
  }

  async function getKgSource(args: { sessionId: string; kgSourceId: string }): Promise<KgSourceRecord> {
    const row = await db.kgSource.findFirst({ where: { id: args.kgSourceId, sessionId: args.sessionId } });
    if (!row) throw notFound("KG source", args.kgSourceId);
    return toKgSourceRecord(row);
  }

  async function deleteKgSource(args: { sessionId: string; kgSourceId: string }): Promise<void> {
    const { count } = await db.kgSource.deleteMany({ where: { id: args.kgSourceId, sessionId: args.sessionId } });
    if (count === 0) throw notFound("KG source", args.kgSourceId);
  }

  return {
    createConversation,
    listConversations,
    getConversation,
    renameConversation,
    deleteConversation,
    createTurn,
    getTurn,
    finishTurn,
    failTurn,
    appendTrace,
    setFeedback,
    retryTurn,
    markInterruptedTurns,
    createKgSource,
    listKgSources,
    getKgSource,
    deleteKgSource,
  };
}

export type Queries = ReturnType<typeof makeQueries>;

function toKgSourceRecord(row: { id: string; name: string; kind: string; spec: unknown; createdAt: Date }): KgSourceRecord {
  return {
    id: row.id,
    name: row.name,
    kind: parseColumn(z.enum(KG_SOURCE_KINDS), row.kind, "kind", row.id),
    spec: parseColumn(kgSourceSpecSchema, row.spec, "spec", row.id),
    createdAt: row.createdAt,
  };
}

let appQueries: Queries | undefined;

/** The query functions on the process-wide client (DATABASE_URL). */
export function getQueries(): Queries {
  appQueries ??= makeQueries(getDb());
  return appQueries;
}
