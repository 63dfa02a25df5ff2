// The statements a turn runs on its hot path, written by hand, one function each in the SQLite and the PostgreSQL
// dialect, sent straight to the driver (lib/db/client.ts SqlDriver): single statements instead of Prisma's implicit
// transactions, and no query compiler per call (Prisma's was ~3 ms of main-thread CPU per statement under load).
import "server-only";
import type { Dialect, SqlDriver } from "./client";

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
const OUTCOME_COLUMNS = new Set(["status", "source", "error", "finishedAt", "answer", "naturalAnswer", "standaloneQuestion", "stats", "sparql", "snapshot"]);

export interface DialogueRow {
  title: string;
  /** null for a conversation without turns (LEFT JOIN) */
  turnId: string | null;
  index: number | null;
  question: string | null;
  status: string | null;
  /** JSON: text on SQLite, parsed on PostgreSQL */
  answer: unknown;
}

export interface RawSql {
  /** Inserts a conversation (id, title, KG) for the session at `at`. */
  insertConversation(db: SqlDriver, a: { id: string; sessionId: string; title: string; kgId: string; at: Date }): Promise<void>;
  /** The title and each turn's question, status and answer, in order; [] when the session owns no such conversation. */
  dialogue(db: SqlDriver, a: { sessionId: string; conversationId: string }): Promise<DialogueRow[]>;
  /**
   * Touches the conversation's updatedAt and inserts a running turn at its next free index (MAX + 1); returns that
   * index, or undefined when the session owns no such conversation.
   */
  insertTurn(db: SqlDriver, a: { id: string; sessionId: string; conversationId: string; question: string; configJson: string; createdAt: Date }): Promise<number | undefined>;
  /**
   * Appends trace events (a JSON array as text) after the turn's last one, or with fullTrace only the events of a
   * full trace from that position on; only when the session owns the turn. Returns the rows inserted.
   */
  appendTraceEvents(db: SqlDriver, a: { sessionId: string; turnId: string; json: string; fullTrace: boolean }): Promise<number>;
  /** Sets a turn's outcome when the session owns it; returns the updated row (raw) or nothing. */
  updateOwnedTurn(db: SqlDriver, a: { sessionId: string; turnId: string; set: TurnOutcomeColumns }): Promise<Record<string, unknown>[]>;
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

function outcomeEntries(set: TurnOutcomeColumns): [string, unknown][] {
  const entries = Object.entries(set).filter(([, v]) => v !== undefined);
  for (const [c] of entries) if (!OUTCOME_COLUMNS.has(c)) throw new Error(`Not a turn outcome column: ${c}`);
  return entries;
}

function errorText(e: unknown): string {
  return e instanceof Error ? `${e.message} ${(e as { code?: unknown }).code ?? ""}` : String(e);
}

const DIALOGUE = (p: (i: number) => string) => `
  SELECT c."title" AS "title", t."id" AS "turnId", t."index" AS "index", t."question" AS "question", t."status" AS "status", t."answer" AS "answer"
  FROM "Conversation" c LEFT JOIN "Turn" t ON t."conversationId" = c."id"
  WHERE c."id" = ${p(1)} AND c."sessionId" = ${p(2)}
  ORDER BY t."index"`;

const sqlite: RawSql = {
  insertConversation: async (db, a) => {
    const at = sqliteDate(a.at);
    await db.execute(`INSERT INTO "Conversation" ("id", "sessionId", "title", "kgId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`, [a.id, a.sessionId, a.title, a.kgId, at, at]);
  },

  dialogue: (db, a) => db.query(DIALOGUE((i) => `?${i}`), [a.conversationId, a.sessionId]) as unknown as Promise<DialogueRow[]>,

  // Two statements, no transaction (each one makes libsql reopen its connection). SQLite runs one writer at a time, so
  // MAX + 1 only collides with another process; its unique violation is retried by the caller.
  async insertTurn(db, a) {
    const at = sqliteDate(a.createdAt);
    const touched = await db.execute(`UPDATE "Conversation" SET "updatedAt" = ? WHERE "id" = ? AND "sessionId" = ?`, [at, a.conversationId, a.sessionId]);
    if (touched === 0) return undefined;
    const rows = await db.query(
      `INSERT INTO "Turn" ("id", "conversationId", "index", "question", "status", "trace", "config", "createdAt")
       SELECT ?, ?, COALESCE(MAX("index") + 1, 0), ?, 'running', '[]', ?, ? FROM "Turn" WHERE "conversationId" = ?
       RETURNING "index"`,
      [a.id, a.conversationId, a.question, a.configJson, at, a.conversationId],
    );
    return Number(rows[0].index);
  },

  // json_each hands back each array element's JSON text as written, so every event is serialized once, by the caller.
  appendTraceEvents: (db, a) =>
    db.execute(
      `WITH base AS (SELECT COALESCE(MAX("seq") + 1, 0) AS next FROM "TraceEvent" WHERE "turnId" = ?1)
       INSERT INTO "TraceEvent" ("turnId", "seq", "json")
       SELECT ?1, CASE WHEN ?2 = 1 THEN j."key" ELSE base.next + j."key" END, j."value"
       FROM base, json_each(?3) AS j
       WHERE (?2 = 0 OR j."key" >= base.next)
         AND EXISTS (SELECT 1 FROM "Turn" t JOIN "Conversation" c ON c."id" = t."conversationId" WHERE t."id" = ?1 AND c."sessionId" = ?4)`,
      [a.turnId, a.fullTrace ? 1 : 0, a.json, a.sessionId],
    ),

  updateOwnedTurn(db, a) {
    const entries = outcomeEntries(a.set);
    const set = entries.map(([c]) => `"${c}" = ?`).join(", ");
    const args = entries.map(([, v]) => (v instanceof Date ? sqliteDate(v) : v));
    return db.query(
      `UPDATE "Turn" SET ${set}
       WHERE "id" = ? AND "conversationId" IN (SELECT "id" FROM "Conversation" WHERE "sessionId" = ?)
       RETURNING *`,
      [...args, a.turnId, a.sessionId],
    );
  },

  isUniqueViolation: (e) => /UNIQUE constraint failed|SQLITE_CONSTRAINT_UNIQUE|P2002/.test(errorText(e)),
};

// PostgreSQL infers no types for parameters in a SELECT list and will not assign text to jsonb or timestamp columns:
// every such parameter is cast. Timestamps are Prisma's timestamp(3) in UTC.
const postgres: RawSql = {
  insertConversation: async (db, a) => {
    const at = a.at.toISOString();
    await db.execute(`INSERT INTO "Conversation" ("id", "sessionId", "title", "kgId", "createdAt", "updatedAt") VALUES ($1, $2, $3, $4, $5::timestamp(3), $5::timestamp(3))`, [a.id, a.sessionId, a.title, a.kgId, at]);
  },

  dialogue: (db, a) => db.query(DIALOGUE((i) => `$${i}`), [a.conversationId, a.sessionId]) as unknown as Promise<DialogueRow[]>,

  // One transaction: the UPDATE locks the conversation's row until commit, so concurrent turns of one conversation
  // (pooled connections, several processes) take their MAX + 1 one after another; the INSERT's snapshot, taken after
  // the lock, sees the previous one. An unowned conversation updates nothing and inserts nothing.
  insertTurn: (db, a) =>
    db.transaction(async (tx) => {
      const at = a.createdAt.toISOString();
      const touched = await tx.execute(`UPDATE "Conversation" SET "updatedAt" = $1::timestamp(3) WHERE "id" = $2 AND "sessionId" = $3`, [at, a.conversationId, a.sessionId]);
      if (touched === 0) return undefined;
      const rows = await tx.query(
        `INSERT INTO "Turn" ("id", "conversationId", "index", "question", "status", "trace", "config", "createdAt")
         SELECT $1, $2, COALESCE(MAX("index") + 1, 0), $3, 'running', '[]'::jsonb, $4::jsonb, $5::timestamp(3) FROM "Turn" WHERE "conversationId" = $2
         RETURNING "index"`,
        [a.id, a.conversationId, a.question, jsonbSafe(a.configJson), at],
      );
      return Number(rows[0].index);
    }),

  // json (not jsonb) keeps each element's text as written; WITH ORDINALITY numbers the elements from 1
  appendTraceEvents: (db, a) =>
    db.execute(
      `WITH base AS (SELECT COALESCE(MAX("seq") + 1, 0) AS next FROM "TraceEvent" WHERE "turnId" = $1)
       INSERT INTO "TraceEvent" ("turnId", "seq", "json")
       SELECT $1, CASE WHEN $2::boolean THEN j.n - 1 ELSE base.next + j.n - 1 END, j.value::text
       FROM base, json_array_elements($3::json) WITH ORDINALITY AS j(value, n)
       WHERE (NOT $2::boolean OR j.n - 1 >= base.next)
         AND EXISTS (SELECT 1 FROM "Turn" t JOIN "Conversation" c ON c."id" = t."conversationId" WHERE t."id" = $1 AND c."sessionId" = $4)`,
      [a.turnId, a.fullTrace, a.json, a.sessionId],
    ),

  updateOwnedTurn(db, a) {
    const entries = outcomeEntries(a.set);
    const set = entries
      .map(([c, v], i) => `"${c}" = $${i + 1}${v instanceof Date ? "::timestamp(3)" : JSON_OUTCOME_COLUMNS.has(c) ? "::jsonb" : ""}`)
      .join(", ");
    const args = entries.map(([c, v]) => (v instanceof Date ? v.toISOString() : JSON_OUTCOME_COLUMNS.has(c) && typeof v === "string" ? jsonbSafe(v) : v));
    const n = entries.length;
    return db.query(
      `UPDATE "Turn" SET ${set}
       WHERE "id" = $${n + 1} AND "conversationId" IN (SELECT "id" FROM "Conversation" WHERE "sessionId" = $${n + 2})
       RETURNING *`,
      [...args, a.turnId, a.sessionId],
    );
  },

  // SQLSTATE 23505 (the pg driver's error code; Prisma reports it as P2002 or in its message)
  isUniqueViolation: (e) => (e as { code?: unknown })?.code === "23505" || /23505|duplicate key value violates unique constraint|P2002/.test(errorText(e)),
};

export function rawSql(dialect: Dialect): RawSql {
  return dialect === "postgres" ? postgres : sqlite;
}
