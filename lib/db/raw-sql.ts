// The few statements queries.ts writes by hand (single statements instead of Prisma's implicit transactions), one
// function each, in the SQLite and the PostgreSQL dialect.
import "server-only";
import { Prisma } from "@/generated/prisma/client";
import type { Dialect, PrismaClient } from "./client";

type Db = PrismaClient;

/** Columns a turn's outcome sets: JSON as JSON text, dates as Date (column names are fixed in code, never input). */
export interface TurnOutcomeColumns {
  status: string;
  source: string;
  error: string | null;
  finishedAt: Date;
  answer?: string;
  naturalAnswer?: string | null;
  standaloneQuestion?: string | null;
  stats?: string;
  sparql?: string;
  /** the strategy's state snapshot (a re-run after a correction starts from it) */
  snapshot?: string | null;
}
const JSON_OUTCOME_COLUMNS = new Set(["answer", "error", "stats", "sparql", "snapshot"]);

export interface RawSql {
  /**
   * Touches the conversation's updatedAt and inserts a running turn at its next free index (MAX + 1); returns that
   * index, or undefined when the session owns no such conversation.
   */
  insertTurn(db: Db, a: { id: string; sessionId: string; conversationId: string; question: string; configJson: string; createdAt: Date }): Promise<number | undefined>;
  /**
   * Appends trace events (a JSON array as text) after the turn's last one, or with fullTrace only the events of a
   * full trace from that position on; only when the session owns the turn. Returns the rows inserted.
   */
  appendTraceEvents(db: Db, a: { sessionId: string; turnId: string; json: string; fullTrace: boolean }): Promise<number>;
  /** Sets a turn's outcome when the session owns it; returns the updated row (raw) or nothing. */
  updateOwnedTurn(db: Db, a: { sessionId: string; turnId: string; set: TurnOutcomeColumns }): Promise<Record<string, unknown>[]>;
  /** A unique-index violation (another process took the same turn index). */
  isUniqueViolation(e: unknown): boolean;
}

/** A DateTime as Prisma's SQLite adapter stores it (ISO text with an explicit offset). */
export function sqliteDate(d: Date): string {
  return d.toISOString().replace("Z", "+00:00");
}

// jsonb cannot hold U+0000 ("unsupported Unicode escape sequence"); such text (from a KG literal, say) is stored with
// U+FFFD in its place rather than failing the turn. SQLite keeps it as is.
const NUL_ESCAPE = /(?<!\\)((?:\\\\)*)\\u0000/g;
export function jsonbSafe(json: string): string {
  return json.replace(NUL_ESCAPE, "$1\\ufffd");
}

function knownRequestError(e: unknown): e is Prisma.PrismaClientKnownRequestError {
  return e instanceof Prisma.PrismaClientKnownRequestError;
}

const sqlite: RawSql = {
  // Two statements, no transaction (each one makes libsql reopen its connection). SQLite runs one writer at a time, so
  // MAX + 1 only collides with another process; its unique violation is retried by the caller.
  async insertTurn(db, a) {
    const touched = await db.$executeRaw`
      UPDATE "Conversation" SET "updatedAt" = ${sqliteDate(a.createdAt)} WHERE "id" = ${a.conversationId} AND "sessionId" = ${a.sessionId}`;
    if (touched === 0) return undefined;
    const rows = await db.$queryRaw<{ index: number | bigint }[]>`
      INSERT INTO "Turn" ("id", "conversationId", "index", "question", "status", "trace", "config", "createdAt")
      SELECT ${a.id}, ${a.conversationId}, COALESCE(MAX("index") + 1, 0), ${a.question}, 'running', '[]', ${a.configJson}, ${sqliteDate(a.createdAt)}
      FROM "Turn" WHERE "conversationId" = ${a.conversationId}
      RETURNING "index"`;
    return Number(rows[0].index);
  },

  // json_each hands back each array element's JSON text as written, so every event is serialized once, by the caller.
  appendTraceEvents: (db, a) => db.$executeRaw`
    WITH base AS (SELECT COALESCE(MAX("seq") + 1, 0) AS next FROM "TraceEvent" WHERE "turnId" = ${a.turnId})
    INSERT INTO "TraceEvent" ("turnId", "seq", "json")
    SELECT ${a.turnId}, CASE WHEN ${a.fullTrace ? 1 : 0} = 1 THEN j."key" ELSE base.next + j."key" END, j."value"
    FROM base, json_each(${a.json}) AS j
    WHERE (${a.fullTrace ? 1 : 0} = 0 OR j."key" >= base.next)
      AND EXISTS (SELECT 1 FROM "Turn" t JOIN "Conversation" c ON c."id" = t."conversationId"
                  WHERE t."id" = ${a.turnId} AND c."sessionId" = ${a.sessionId})`,

  updateOwnedTurn(db, a) {
    const set = Object.entries(a.set).map(([column, value]) => Prisma.sql`${Prisma.raw(`"${column}"`)} = ${value instanceof Date ? sqliteDate(value) : value}`);
    return db.$queryRaw<Record<string, unknown>[]>`
      UPDATE "Turn" SET ${Prisma.join(set)}
      WHERE "id" = ${a.turnId} AND "conversationId" IN (SELECT "id" FROM "Conversation" WHERE "sessionId" = ${a.sessionId})
      RETURNING *`;
  },

  // a raw INSERT reports it as a failed raw query (P2010) with SQLite's message
  isUniqueViolation: (e) => knownRequestError(e) && (e.code === "P2002" || /UNIQUE constraint failed/.test(e.message)),
};

// PostgreSQL infers no types for parameters in a SELECT list and will not assign text to jsonb or timestamp columns:
// every such parameter is cast. Timestamps are Prisma's timestamp(3) in UTC.
const postgres: RawSql = {
  // One transaction: the UPDATE locks the conversation's row until commit, so concurrent turns of one conversation
  // (pooled connections, several processes) take their MAX + 1 one after another; the INSERT's snapshot, taken after
  // the lock, sees the previous one. An unowned conversation updates nothing and inserts nothing.
  async insertTurn(db, a) {
    const at = a.createdAt.toISOString();
    const [, rows] = await db.$transaction([
      db.$executeRaw`UPDATE "Conversation" SET "updatedAt" = ${at}::timestamp(3) WHERE "id" = ${a.conversationId} AND "sessionId" = ${a.sessionId}`,
      db.$queryRaw<{ index: number | bigint }[]>`
        INSERT INTO "Turn" ("id", "conversationId", "index", "question", "status", "trace", "config", "createdAt")
        SELECT ${a.id}, ${a.conversationId}, m.next, ${a.question}, 'running', '[]'::jsonb, ${jsonbSafe(a.configJson)}::jsonb, ${at}::timestamp(3)
        FROM (SELECT COALESCE(MAX("index") + 1, 0) AS next FROM "Turn" WHERE "conversationId" = ${a.conversationId}) m
        WHERE EXISTS (SELECT 1 FROM "Conversation" WHERE "id" = ${a.conversationId} AND "sessionId" = ${a.sessionId})
        RETURNING "index"`,
    ]);
    return rows.length ? Number(rows[0].index) : undefined;
  },

  // json (not jsonb) keeps each element's text as written; WITH ORDINALITY numbers the elements from 1
  appendTraceEvents: (db, a) => db.$executeRaw`
    WITH base AS (SELECT COALESCE(MAX("seq") + 1, 0) AS next FROM "TraceEvent" WHERE "turnId" = ${a.turnId})
    INSERT INTO "TraceEvent" ("turnId", "seq", "json")
    SELECT ${a.turnId}, CASE WHEN ${a.fullTrace} THEN j.n - 1 ELSE base.next + j.n - 1 END, j.value::text
    FROM base, json_array_elements(${a.json}::json) WITH ORDINALITY AS j(value, n)
    WHERE (NOT ${a.fullTrace} OR j.n - 1 >= base.next)
      AND EXISTS (SELECT 1 FROM "Turn" t JOIN "Conversation" c ON c."id" = t."conversationId"
                  WHERE t."id" = ${a.turnId} AND c."sessionId" = ${a.sessionId})`,

  updateOwnedTurn(db, a) {
    const set = Object.entries(a.set).map(([column, value]) => {
      const name = Prisma.raw(`"${column}"`);
      if (value instanceof Date) return Prisma.sql`${name} = ${value.toISOString()}::timestamp(3)`;
      if (JSON_OUTCOME_COLUMNS.has(column)) return Prisma.sql`${name} = ${typeof value === "string" ? jsonbSafe(value) : value}::jsonb`;
      return Prisma.sql`${name} = ${value}`;
    });
    return db.$queryRaw<Record<string, unknown>[]>`
      UPDATE "Turn" SET ${Prisma.join(set)}
      WHERE "id" = ${a.turnId} AND "conversationId" IN (SELECT "id" FROM "Conversation" WHERE "sessionId" = ${a.sessionId})
      RETURNING *`;
  },

  // SQLSTATE 23505; Prisma reports a raw statement's violation as P2010 with the server's message
  isUniqueViolation: (e) => knownRequestError(e) && (e.code === "P2002" || /23505|duplicate key value violates unique constraint/.test(e.message)),
};

export function rawSql(dialect: Dialect): RawSql {
  return dialect === "postgres" ? postgres : sqlite;
}
