// Shared by the query files of lib/db: input and column checks, the row → record mapping of turns and attempts, and
// the reads every turn query starts from (the owned turn, its trace events, its attempts).
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { Prisma } from "@/generated/prisma/client";
import type { PrismaClient, SqlDriver } from "./client";
import { answerSchema, attemptChangeSchema, sparqlListSchema, statsSchema, traceSchema, turnConfigSchema, turnErrorSchema, TURN_SOURCES, TURN_STATUSES } from "./json";
import type { RawSql } from "./raw-sql";
import type { AttemptRecord, TurnRecord } from "./records";

/** What every query file works with: the Prisma client, and the raw-SQL driver and statements of its dialect. */
export interface QueryContext {
  db: PrismaClient;
  sql: SqlDriver;
  raw: RawSql;
}

const MAX_TITLE = 200;
// SQLite (libsql) stores text only up to a NUL and PostgreSQL refuses NUL in text: C0 controls (tab, newline and CR
// kept) are dropped from what users type, and a NUL in text a model or a KG produced becomes U+FFFD.
// eslint-disable-next-line no-control-regex
const C0_CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g;
export const withoutControls = (v: unknown) => (typeof v === "string" ? v.replace(C0_CONTROLS, "") : v);
// eslint-disable-next-line no-control-regex
export const withoutNul = (v: string | null | undefined) => (v == null ? null : v.replace(/\u0000/g, "\ufffd"));
export const titleSchema = z.preprocess(withoutControls, z.string().trim().min(1).max(MAX_TITLE));
export const sessionIdSchema = z.string().min(1).max(200);

export type Db = PrismaClient;
export type Tx = Prisma.TransactionClient;
export type TurnRow = Awaited<ReturnType<Db["turn"]["findFirstOrThrow"]>>;
export type AttemptRow = Omit<Awaited<ReturnType<Db["turnAttempt"]["findFirstOrThrow"]>>, "snapshot">;
// snapshots are read only to re-run; pages, exports and turn reads never load them
export const NO_SNAPSHOT = { snapshot: true } as const;

export function parseInput<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new AppError("bad_request", `Invalid ${what}: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

// Rows written by older code or by hand must not crash a page: a broken column becomes an internal error naming it.
export function parseColumn<T>(schema: z.ZodType<T>, value: unknown, column: string, turnId: string): T {
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
export function toTurnRecord(row: Omit<TurnRow, "snapshot">, events: readonly string[] = [], attempts: AttemptRow[] = []): TurnRecord {
  return {
    id: row.id,
    conversationId: row.conversationId,
    index: row.index,
    question: row.question,
    ...toAttemptRecord(row, row.id, parseTrace(row, events)),
    attempts: attempts.map((a) => toAttemptRecord(a, row.id, parseColumn(traceSchema, a.trace, "attempt trace", row.id))),
  };
}

export function parseTrace(row: Pick<TurnRow, "id" | "trace">, events: readonly string[]): DerivationEvent[] {
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
export const CLEARED_OUTCOME = {
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

export function asJson(value: unknown): Prisma.InputJsonValue {
  return value as Prisma.InputJsonValue;
}

export function notFound(what: "conversation" | "turn" | "KG source", id: string): AppError {
  // Same message whether the id does not exist or belongs to another session: ids do not leak across sessions.
  return new AppError("not_found", `No ${what} with id ${id}.`);
}

export async function ownedTurn(db: Db | Tx, sessionId: string, turnId: string): Promise<TurnRow> {
  const turn = await db.turn.findFirst({ where: { id: turnId, conversation: { sessionId } } });
  if (!turn) throw notFound("turn", turnId);
  return turn;
}

/** The JSON text of each turn's trace events, in order, by turn id. */
export async function traceEventsOf(db: Db | Tx, turnIds: string[]): Promise<Map<string, string[]>> {
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
export function fromRawTurn(raw: Record<string, unknown>): TurnRow {
  const row: Record<string, unknown> = { ...raw };
  for (const c of JSON_COLUMNS) if (typeof row[c] === "string") row[c] = JSON.parse(row[c]);
  for (const c of DATE_COLUMNS) if (row[c] !== null && row[c] !== undefined && !(row[c] instanceof Date)) row[c] = new Date(row[c] as string);
  for (const c of ["index", "feedback", "attempt"]) if (typeof row[c] === "bigint") row[c] = Number(row[c]);
  return row as TurnRow;
}

export async function attemptsOf(db: Db, turnId: string): Promise<AttemptRow[]> {
  return db.turnAttempt.findMany({ where: { turnId }, orderBy: { attempt: "asc" }, omit: NO_SNAPSHOT });
}
