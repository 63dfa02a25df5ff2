// All database reads and writes of the app: conversations, turns and KG sources, always scoped to a browser session.
import "server-only";
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";
import { Prisma } from "@/generated/prisma/client";
import { driverOf, getDb, type PrismaClient } from "./client";
import {
  answerSchema,
  attemptChangeSchema,
  KG_SOURCE_KINDS,
  kgSourceSpecSchema,
  snapshotSchema,
  SNAPSHOT_MAX_CHARS,
  sparqlListSchema,
  statsSchema,
  traceSchema,
  turnConfigSchema,
  turnErrorSchema,
  TURN_SOURCES,
  TURN_STATUSES,
  type AttemptChange,
  type KgSourceKind,
  type TurnConfig,
  type TurnConfigInput,
  type TurnError,
  type TurnSource,
  type TurnStatus,
} from "./json";
import { rawSql, type TurnOutcomeColumns } from "./raw-sql";

export interface ConversationSummary {
  id: string;
  title: string;
  kgId: string;
  createdAt: Date;
  updatedAt: Date;
  turnCount: number;
}

/** One attempt of a turn: the outcome columns of a run (the first, or a re-run after a user's correction). */
export interface AttemptRecord {
  /** 1-based */
  attempt: number;
  /** what the user corrected to start it; null for the first attempt */
  change: AttemptChange | null;
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

/** A turn: its question and its latest attempt (the columns above), with the earlier attempts, oldest first. */
export interface TurnRecord extends AttemptRecord {
  id: string;
  conversationId: string;
  index: number;
  question: string;
  /** attempts before the latest one (empty until the user re-runs the turn from a correction) */
  attempts: AttemptRecord[];
}

/** What a re-run starts from: an attempt's snapshot, trace and config. */
export interface AttemptBase {
  attempt: number;
  status: TurnStatus;
  snapshot: Record<string, unknown> | null;
  trace: DerivationEvent[];
  config: TurnConfig;
  /** the question as that attempt understood it (standalone English), when it derived one */
  standaloneQuestion: string | null;
}

export interface ConversationRecord extends Omit<ConversationSummary, "turnCount"> {
  turns: TurnRecord[];
}

/** What a new turn needs from its conversation: the title and the earlier turns' questions and answers (no traces). */
export interface DialogueRecord {
  id: string;
  title: string;
  turns: Pick<TurnRecord, "index" | "question" | "status" | "answer">[];
}

export interface KgSourceRecord {
  id: string;
  name: string;
  kind: KgSourceKind;
  spec: Record<string, unknown>;
  createdAt: Date;
}

/** A solved question of the experience pool (explorer examples), with where it came from. */
export interface ExperienceRecord {
  id: string;
  kgKey: string;
  question: string;
  sparql: string;
  source: "feedback" | "import";
  dataset: string | null;
  itemId: string | null;
  split: string | null;
  createdAt: Date;
}

const EXPERIENCE_TEXT_MAX = 20_000;
const experienceItemSchema = z.object({
  itemId: z.string().min(1).max(500),
  question: z.string().trim().min(1).max(EXPERIENCE_TEXT_MAX),
  sparql: z.string().trim().min(1).max(EXPERIENCE_TEXT_MAX),
});

const MAX_TITLE = 200;
// SQLite (libsql) stores text only up to a NUL and PostgreSQL refuses NUL in text: C0 controls (tab, newline and CR
// kept) are dropped from what users type, and a NUL in text a model or a KG produced becomes U+FFFD.
// eslint-disable-next-line no-control-regex
const C0_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
const withoutControls = (v: unknown) => (typeof v === "string" ? v.replace(C0_CONTROLS, "") : v);
// eslint-disable-next-line no-control-regex
const withoutNul = (v: string | null | undefined) => (v == null ? null : v.replace(/\u0000/g, "\ufffd"));
const titleSchema = z.preprocess(withoutControls, z.string().trim().min(1).max(MAX_TITLE));
const sessionIdSchema = z.string().min(1).max(200);
// Another process may take the next turn index between our read and insert; a unique violation means "try again".
const CREATE_TURN_ATTEMPTS = 5;

type Db = PrismaClient;
type Tx = Prisma.TransactionClient;
type TurnRow = Awaited<ReturnType<Db["turn"]["findFirstOrThrow"]>>;
type AttemptRow = Omit<Awaited<ReturnType<Db["turnAttempt"]["findFirstOrThrow"]>>, "snapshot">;
// snapshots are read only to re-run; pages, exports and turn reads never load them
const NO_SNAPSHOT = { snapshot: true } as const;

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

/** The outcome columns of a Turn row (its latest attempt) or of a TurnAttempt row. */
function toAttemptRecord(row: Omit<AttemptRow, "id" | "turnId">, id: string, trace: DerivationEvent[]): AttemptRecord {
  const nullable = <T>(schema: z.ZodType<T>, value: unknown, column: string): T | null =>
    value === null || value === undefined ? null : parseColumn(schema, value, column, id);
  return {
    attempt: Number(row.attempt),
    change: nullable(attemptChangeSchema, row.change, "change"),
    status: parseColumn(z.enum(TURN_STATUSES), row.status, "status", id),
    answer: nullable(answerSchema, row.answer, "answer"),
    naturalAnswer: row.naturalAnswer,
    source: nullable(z.enum(TURN_SOURCES), row.source, "source"),
    standaloneQuestion: row.standaloneQuestion,
    error: nullable(turnErrorSchema, row.error, "error"),
    trace,
    stats: nullable(statsSchema, row.stats, "stats"),
    config: parseColumn(turnConfigSchema, row.config, "config", id),
    sparql: nullable(sparqlListSchema, row.sparql, "sparql") ?? [],
    feedback: row.feedback === 1 ? 1 : row.feedback === -1 ? -1 : null,
    createdAt: row.createdAt,
    finishedAt: row.finishedAt,
  };
}

/** The turn's trace: the legacy JSON column (turns stored before TraceEvent rows) followed by its event rows. */
function toTurnRecord(row: Omit<TurnRow, "snapshot">, events: readonly string[] = [], attempts: AttemptRow[] = []): TurnRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    index: row.index,
    question: row.question,
    ...toAttemptRecord(row, row.id, parseTrace(row, events)),
    attempts: attempts.map((a) => toAttemptRecord(a, row.id, parseColumn(traceSchema, a.trace, "attempt trace", row.id))),
  };
}

function parseTrace(row: Pick<TurnRow, "id" | "trace">, events: readonly string[]): DerivationEvent[] {
  const legacy = Array.isArray(row.trace) && row.trace.length === 0 ? [] : row.trace;
  if (events.length === 0) return parseColumn(traceSchema, legacy, "trace", row.id);
  let parsed: unknown[];
  try {
    parsed = events.map((e) => JSON.parse(e) as unknown);
  } catch {
    throw new AppError("internal", `Stored trace of turn ${row.id} is malformed.`);
  }
  return parseColumn(traceSchema, Array.isArray(legacy) ? [...legacy, ...parsed] : legacy, "trace", row.id);
}

/** A turn's outcome columns emptied for a new run (a retry, or the next attempt after a correction). */
const CLEARED_OUTCOME = {
  answer: Prisma.DbNull,
  naturalAnswer: null,
  source: null,
  standaloneQuestion: null,
  error: Prisma.DbNull,
  trace: [],
  stats: Prisma.DbNull,
  sparql: Prisma.DbNull,
  snapshot: Prisma.DbNull,
  feedback: null,
  finishedAt: null,
} as const;

function asJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

function notFound(what: "conversation" | "turn" | "KG source", id: string): AppError {
  // Same message whether the id does not exist or belongs to another session: ids do not leak across sessions.
  return new AppError("not_found", `No ${what} with id ${id}.`);
}

async function ownedTurn(db: Db | Tx, sessionId: string, turnId: string): Promise<TurnRow> {
  const turn = await db.turn.findFirst({ where: { id: turnId, conversation: { sessionId } } });
  if (!turn) throw notFound("turn", turnId);
  return turn;
}

/** The JSON text of each turn's trace events, in order, by turn id. */
async function traceEventsOf(db: Db | Tx, turnIds: string[]): Promise<Map<string, string[]>> {
  const byTurn = new Map<string, string[]>();
  if (turnIds.length === 0) return byTurn;
  const rows = await db.traceEvent.findMany({
    where: { turnId: { in: turnIds } },
    orderBy: [{ turnId: "asc" }, { seq: "asc" }],
    select: { turnId: true, json: true },
  });
  for (const r of rows) {
    const list = byTurn.get(r.turnId);
    if (list) list.push(r.json);
    else byTurn.set(r.turnId, [r.json]);
  }
  return byTurn;
}

const JSON_COLUMNS = ["answer", "error", "trace", "stats", "config", "sparql", "change", "snapshot"] as const;
const DATE_COLUMNS = ["createdAt", "finishedAt"] as const;

/** A Turn row read by raw SQL in the shape the ORM gives (JSON parsed, dates as Date, integers as numbers). */
function fromRawTurn(raw: Record<string, unknown>): TurnRow {
  const row: Record<string, unknown> = { ...raw };
  for (const c of JSON_COLUMNS) if (typeof row[c] === "string") row[c] = JSON.parse(row[c]);
  for (const c of DATE_COLUMNS) if (row[c] !== null && row[c] !== undefined && !(row[c] instanceof Date)) row[c] = new Date(row[c] as string);
  for (const c of ["index", "feedback", "attempt"]) if (typeof row[c] === "bigint") row[c] = Number(row[c]);
  return row as TurnRow;
}

/** The query functions bound to one Prisma client (the app passes getDb(); tests pass a client on a temp file). */
export function makeQueries(db: Db) {
  const sql = driverOf(db);
  const raw = rawSql(sql.dialect);
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

  /** Persists the question before the pipeline runs (status "running"), at the next position of the conversation. */
  async function createTurn(args: {
    sessionId: string;
    conversationId: string;
    question: string;
    config: TurnConfigInput;
  }): Promise<TurnRecord> {
    const question = parseInput(z.string().trim().min(1).max(10_000), withoutControls(args.question), "question");
    const config = parseInput(turnConfigSchema, args.config, "turn config");
    // The ownership check, the conversation's "last active" touch and the insert at the next position, without a
    // Prisma transaction on SQLite (each one makes libsql reopen its connection; lib/db/raw-sql.ts). Another process
    // racing for the same index gets a unique violation, retried here.
    const id = randomUUID();
    const createdAt = new Date();
    const configJson = JSON.stringify(config);
    for (let attempt = 1; ; attempt++) {
      try {
        const index = await raw.insertTurn(sql, { id, sessionId: args.sessionId, conversationId: args.conversationId, question, configJson, createdAt });
        if (index === undefined) throw notFound("conversation", args.conversationId);
        return {
          id,
          conversationId: args.conversationId,
          index,
          question,
          status: "running",
          answer: null,
          naturalAnswer: null,
          source: null,
          standaloneQuestion: null,
          error: null,
          trace: [],
          stats: null,
          config,
          sparql: [],
          feedback: null,
          createdAt,
          finishedAt: null,
          attempt: 1,
          change: null,
          attempts: [],
        };
      } catch (e) {
        if (raw.isUniqueViolation(e) && attempt < CREATE_TURN_ATTEMPTS) continue;
        throw e;
      }
    }
  }

  async function getTurn(args: { sessionId: string; turnId: string }): Promise<TurnRecord> {
    const row = await ownedTurn(db, args.sessionId, args.turnId);
    return toTurnRecord(row, (await traceEventsOf(db, [row.id])).get(row.id), await attemptsOf(row.id));
  }

  async function attemptsOf(turnId: string): Promise<AttemptRow[]> {
    return db.turnAttempt.findMany({ where: { turnId }, orderBy: { attempt: "asc" }, omit: NO_SNAPSHOT });
  }

  /** Every attempt of a turn the session owns, oldest first (the last is the turn's current one). */
  async function listAttempts(args: { sessionId: string; turnId: string }): Promise<AttemptRecord[]> {
    const { attempts, ...latest } = await getTurn(args);
    const current: AttemptRecord = { ...latest };
    for (const k of ["id", "conversationId", "index", "question"] as const) delete (current as Partial<TurnRecord>)[k];
    return [...attempts, current];
  }

  /** What a re-run starts from: attempt `attempt` (1-based) of a turn the session owns, with its state snapshot. */
  async function getAttemptBase(args: { sessionId: string; turnId: string; attempt: number }): Promise<AttemptBase> {
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    const snapshotOf = (value: unknown) => (value === null || value === undefined ? null : parseColumn(snapshotSchema, value, "snapshot", turn.id));
    if (args.attempt === turn.attempt) {
      return {
        attempt: turn.attempt,
        status: parseColumn(z.enum(TURN_STATUSES), turn.status, "status", turn.id),
        snapshot: snapshotOf(turn.snapshot),
        trace: parseTrace(turn, (await traceEventsOf(db, [turn.id])).get(turn.id) ?? []),
        config: parseColumn(turnConfigSchema, turn.config, "config", turn.id),
        standaloneQuestion: turn.standaloneQuestion,
      };
    }
    const row = await db.turnAttempt.findUnique({ where: { turnId_attempt: { turnId: turn.id, attempt: args.attempt } } });
    if (!row) throw new AppError("not_found", `Turn ${turn.id} has no attempt ${args.attempt}.`);
    return {
      attempt: row.attempt,
      status: parseColumn(z.enum(TURN_STATUSES), row.status, "status", turn.id),
      snapshot: snapshotOf(row.snapshot),
      trace: parseColumn(traceSchema, row.trace, "attempt trace", turn.id),
      config: parseColumn(turnConfigSchema, row.config, "config", turn.id),
      standaloneQuestion: row.standaloneQuestion,
    };
  }

  /**
   * Starts a new attempt of a finished turn (a re-run after the user's correction): the current outcome, with its full
   * trace and snapshot, is kept as a TurnAttempt row; the turn becomes "running" as attempt n+1 with `change`.
   * `config`: what the re-run runs with (the model may differ), stored in place of the old one.
   */
  async function startAttempt(args: { sessionId: string; turnId: string; change: AttemptChange; config?: TurnConfigInput }): Promise<TurnRecord> {
    const change = parseInput(attemptChangeSchema, args.change, "correction");
    const config = args.config === undefined ? undefined : parseInput(turnConfigSchema, args.config, "turn config");
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    if (turn.status === "running" || turn.status === "pending") throw new AppError("bad_request", "This turn is still running: wait for it to finish (or stop it) before correcting it.");
    if (change.baseAttempt > turn.attempt) throw new AppError("bad_request", `This turn has ${turn.attempt} attempt(s); there is no attempt ${change.baseAttempt}.`);
    const trace = parseTrace(turn, (await traceEventsOf(db, [turn.id])).get(turn.id) ?? []);
    const json = (v: unknown) => (v === null ? Prisma.DbNull : asJson(v));
    // One transaction: the archive and the reset happen together or not at all; the status and attempt in the filter
    // (and the unique attempt number) make two simultaneous re-runs start only one.
    await db.$transaction(async (tx) => {
      await tx.turnAttempt.create({
        data: {
          turnId: turn.id,
          attempt: turn.attempt,
          status: turn.status,
          answer: json(turn.answer),
          naturalAnswer: turn.naturalAnswer,
          source: turn.source,
          standaloneQuestion: turn.standaloneQuestion,
          error: json(turn.error),
          trace: asJson(trace),
          stats: json(turn.stats),
          config: asJson(turn.config),
          sparql: json(turn.sparql),
          feedback: turn.feedback,
          change: json(turn.change),
          snapshot: json(turn.snapshot),
          finishedAt: turn.finishedAt,
        },
      });
      const { count } = await tx.turn.updateMany({
        where: { id: turn.id, status: turn.status, attempt: turn.attempt },
        data: {
          status: "running",
          attempt: turn.attempt + 1,
          change: asJson(change),
          ...CLEARED_OUTCOME,
          ...(config ? { config: asJson(config) } : {}),
        },
      });
      if (count === 0) throw new AppError("bad_request", "This turn is already being re-run.");
      await tx.traceEvent.deleteMany({ where: { turnId: turn.id } });
      // the helpful answer the pool took from this turn is now an earlier attempt's: it leaves the pool
      await tx.experience.deleteMany({ where: { turnId: turn.id } });
    }).catch((e: unknown) => {
      if (raw.isUniqueViolation(e)) throw new AppError("bad_request", "This turn is already being re-run.");
      throw e;
    });
    return getTurn(args);
  }

  /**
   * Updates a turn the session owns and stores the events of `trace` not appended yet (appended events are a prefix
   * of the full trace); returns the updated row. not_found when the session does not own it.
   */
  async function updateOwnedTurn(sessionId: string, turnId: string, data: TurnOutcomeColumns, trace?: DerivationEvent[]): Promise<TurnRow> {
    // No transaction: each one makes libsql open a fresh connection (and run its pragmas) afterwards. Events first,
    // so a crash in between leaves a "running" turn (marked interrupted at the next start) with its full trace.
    if (trace && trace.length > 0) await raw.appendTraceEvents(sql, { sessionId, turnId, json: JSON.stringify(trace), fullTrace: true });
    // Raw: Prisma runs updateMany/updateManyAndReturn inside a transaction, so this is one plain statement instead.
    const rows = await raw.updateOwnedTurn(sql, { sessionId, turnId, set: data });
    if (rows.length === 0) throw notFound("turn", turnId);
    return fromRawTurn(rows[0]);
  }

  /** Stores the pipeline's result and full trace; a result with source "failed" marks the turn failed. */
  async function finishTurn(args: {
    sessionId: string;
    turnId: string;
    result: TurnResult;
    trace: DerivationEvent[];
  }): Promise<TurnRecord> {
    const { result } = args;
    const answer = parseInput(answerSchema, result.answer, "answer");
    const stats = parseInput(statsSchema, result.stats, "stats");
    const trace = parseInput(traceSchema, args.trace, "trace");
    const error = result.error === undefined ? undefined : parseInput(turnErrorSchema, result.error, "error");
    const sparql = parseInput(sparqlListSchema, result.sparql, "sparql");
    const snapshot = result.snapshot === undefined ? null : JSON.stringify(parseInput(snapshotSchema, result.snapshot, "state snapshot"));
    const row = await updateOwnedTurn(
      args.sessionId,
      args.turnId,
      {
        status: result.source === "failed" ? "failed" : "done",
        answer: JSON.stringify(answer),
        source: result.source,
        naturalAnswer: withoutNul(result.naturalAnswer),
        standaloneQuestion: withoutNul(result.standaloneQuestion),
        error: error === undefined ? null : JSON.stringify(error),
        stats: JSON.stringify(stats),
        sparql: JSON.stringify(sparql),
        // an oversized state is not kept: the turn can then only be re-run with an edited final query
        snapshot: snapshot !== null && snapshot.length <= SNAPSHOT_MAX_CHARS ? snapshot : null,
        finishedAt: new Date(),
      },
      trace,
    );
    // the trace just stored is the one given (a turn of this code has no legacy trace column): not read back
    return { ...toTurnRecord(row, [], await attemptsOf(row.id)), trace };
  }

  /** For a pipeline that threw (unexpected failure) or was cancelled: keeps the question, records why. */
  async function failTurn(args: {
    sessionId: string;
    turnId: string;
    error: TurnError;
    trace?: DerivationEvent[];
    status?: Extract<TurnStatus, "failed" | "interrupted">;
  }): Promise<TurnRecord> {
    const error = parseInput(turnErrorSchema, args.error, "error");
    const trace = args.trace === undefined ? undefined : parseInput(traceSchema, args.trace, "trace");
    const row = await updateOwnedTurn(
      args.sessionId,
      args.turnId,
      { status: args.status ?? "failed", source: "failed", error: JSON.stringify(error), finishedAt: new Date() },
      trace,
    );
    return toTurnRecord(row, (await traceEventsOf(db, [row.id])).get(row.id), await attemptsOf(row.id));
  }

  /** Adds events to a running turn's stored trace, so a reload mid-turn shows progress so far. */
  async function appendTrace(args: { sessionId: string; turnId: string; events: DerivationEvent[] }): Promise<void> {
    const events = parseInput(traceSchema, args.events, "trace events");
    if (events.length === 0) return;
    const inserted = await raw.appendTraceEvents(sql, { sessionId: args.sessionId, turnId: args.turnId, json: JSON.stringify(events), fullTrace: false });
    if (inserted === 0) throw notFound("turn", args.turnId);
  }

  /** +1 / -1 from the user; null clears it. */
  async function setFeedback(args: { sessionId: string; turnId: string; feedback: 1 | -1 | null }): Promise<void> {
    const feedback = parseInput(z.union([z.literal(1), z.literal(-1), z.null()]), args.feedback, "feedback");
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    await db.turn.update({ where: { id: args.turnId }, data: { feedback } });
    await syncExperience(turn, feedback, args.sessionId);
  }

  /**
   * A turn marked helpful that the KG answered with one final query becomes a solved question of its KG's experience
   * pool (seen only by this session); taking the mark back removes it.
   */
  async function syncExperience(turn: TurnRow, feedback: 1 | -1 | null, sessionId: string): Promise<void> {
    const sparql = turn.sparql === null ? [] : parseColumn(sparqlListSchema, turn.sparql, "sparql", turn.id);
    const usable = feedback === 1 && turn.status === "done" && turn.source === "kg" && sparql.length === 1;
    if (!usable) {
      await db.experience.deleteMany({ where: { turnId: turn.id } });
      return;
    }
    const conversation = await db.conversation.findUniqueOrThrow({ where: { id: turn.conversationId }, select: { kgId: true } });
    const data = { kgKey: conversation.kgId, question: (turn.standaloneQuestion ?? turn.question).slice(0, EXPERIENCE_TEXT_MAX), sparql: sparql[0], source: "feedback", sessionId };
    await db.experience.upsert({ where: { turnId: turn.id }, create: { ...data, turnId: turn.id }, update: data });
  }

  /** The experience pool of a KG as a session sees it: imported items, and the answers this session marked helpful. */
  async function listExperience(args: { kgKey: string; sessionId?: string; limit?: number }): Promise<ExperienceRecord[]> {
    const rows = await db.experience.findMany({
      where: { kgKey: args.kgKey, OR: [{ source: "import" }, ...(args.sessionId ? [{ source: "feedback", sessionId: args.sessionId }] : [])] },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: Math.min(Math.max(args.limit ?? 2000, 1), 10_000),
    });
    return rows.map(toExperienceRecord);
  }

  /** Imports a benchmark's items (question + gold SPARQL) into a KG's pool; an item imported again is replaced. */
  async function importExperience(args: { kgKey: string; dataset: string; split?: string; items: { itemId: string; question: string; sparql: string }[] }): Promise<{ imported: number }> {
    const kgKey = parseInput(z.string().min(1).max(5000), args.kgKey, "KG key");
    const dataset = parseInput(z.string().trim().min(1).max(200), args.dataset, "dataset");
    const split = args.split === undefined ? null : parseInput(z.string().trim().min(1).max(100), args.split, "split");
    const items = parseInput(z.array(experienceItemSchema).max(100_000), args.items, "items");
    for (const item of items) {
      const data = { question: item.question, sparql: item.sparql, source: "import", split, sessionId: null };
      await db.experience.upsert({ where: { kgKey_dataset_itemId: { kgKey, dataset, itemId: item.itemId } }, create: { ...data, kgKey, dataset, itemId: item.itemId }, update: data });
    }
    return { imported: items.length };
  }

  /** Removes imported items of a KG's pool (of one dataset, or all); answers marked helpful stay. */
  async function clearImportedExperience(args: { kgKey: string; dataset?: string }): Promise<number> {
    const { count } = await db.experience.deleteMany({ where: { kgKey: args.kgKey, source: "import", ...(args.dataset ? { dataset: args.dataset } : {}) } });
    return count;
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
        ...CLEARED_OUTCOME,
        ...(config ? { config: asJson(config) } : {}),
      },
    });
    if (count === 0) throw new AppError("bad_request", "This turn is already being retried.");
    // its earlier answer (and so any solved question it gave the pool) is gone
    await db.experience.deleteMany({ where: { turnId: turn.id } });
    // the previous run's events; the new run appends its first events only after this returns
    await db.traceEvent.deleteMany({ where: { turnId: turn.id } });
    return toTurnRecord(await db.turn.findUniqueOrThrow({ where: { id: turn.id } }), [], await attemptsOf(turn.id));
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
    getDialogue,
    renameConversation,
    deleteConversation,
    createTurn,
    getTurn,
    listAttempts,
    getAttemptBase,
    startAttempt,
    finishTurn,
    failTurn,
    appendTrace,
    setFeedback,
    listExperience,
    importExperience,
    clearImportedExperience,
    retryTurn,
    markInterruptedTurns,
    createKgSource,
    listKgSources,
    getKgSource,
    deleteKgSource,
  };
}

export type Queries = ReturnType<typeof makeQueries>;

function toExperienceRecord(row: {
  id: string;
  kgKey: string;
  question: string;
  sparql: string;
  source: string;
  dataset: string | null;
  itemId: string | null;
  split: string | null;
  createdAt: Date;
}): ExperienceRecord {
  return { ...row, source: row.source === "feedback" ? "feedback" : "import" };
}

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
