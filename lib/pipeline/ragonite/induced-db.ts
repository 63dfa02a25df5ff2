// The induced database in DuckDB: written once into a file (tables, typed values, COMMENT ON every table and column),
// then opened read-only with file access and extensions disabled for the model's queries; each query is parsed to a
// single SELECT first, runs on its own connection with a timeout (interrupt) and returns at most a row cap.
import { mkdir, rm, rename } from "node:fs/promises";
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from "@duckdb/node-api";
import { AppError, isAppError, toAppError } from "@/lib/errors";
import type { KgFacts } from "./kg-facts";
import { resourceKey } from "./kg-facts";
import { KEY_COLUMN, LABEL_COLUMN, labelComment, type InducedColumn, type InducedSchema, type SqlType } from "./induce-schema";
import { sqlString } from "./sql-names";
import { checkSerialized, normalizeSql, type GuardedSql } from "./sql-guard";

export interface SqlResult {
  columns: string[];
  /** DuckDB type names, e.g. BIGINT, VARCHAR, DATE */
  types: string[];
  /** JSON-safe cells: BIGINT and DECIMAL as strings, dates as ISO text */
  rows: (string | number | boolean | null | unknown[] | Record<string, unknown>)[][];
  /** more rows existed than the cap */
  truncated: boolean;
  aggregate: boolean;
  ms: number;
}

export interface SqlQueryOptions {
  timeoutMs?: number;
  maxRows?: number;
  signal?: AbortSignal;
}

export interface SqlDatabase {
  readonly path: string;
  /** Parses (one SELECT only), runs read-only, caps rows; AppError sql_syntax / sql_forbidden / sql_timeout / aborted. */
  query(sql: string, options?: SqlQueryOptions): Promise<SqlResult>;
  /** Parses without running (the guard alone). */
  check(sql: string): Promise<GuardedSql>;
  close(): void;
}

export const DEFAULT_SQL_TIMEOUT_MS = 10_000;
export const DEFAULT_SQL_MAX_ROWS = 1000;

function append(appender: DuckDBAppender, type: SqlType, lexical: string | undefined): void {
  if (lexical === undefined) return appender.appendNull();
  // why: the appender casts text to the column type (BIGINT, DOUBLE, DATE…); inferSqlType already checked every value
  if (type === "BOOLEAN") return appender.appendBoolean(lexical === "true" || lexical === "1");
  appender.appendVarchar(lexical);
}

/** The stored text of an object: the IRI (or "_:id") of a resource, the lexical form of a literal. */
function stored(t: KgFacts["triples"][number]["o"]): string {
  return resourceKey(t) ?? t.value;
}

export interface WriteProgress {
  tables: number;
  totalTables: number;
  rows: number;
}

/**
 * Writes the induced database to `path` (replacing it): created under a temporary name and renamed when complete,
 * so a crash never leaves a half-written file that looks finished.
 */
export async function writeInducedDb(path: string, schema: InducedSchema, facts: KgFacts, onProgress?: (p: WriteProgress) => void): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  if (dir) await mkdir(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const instance = await DuckDBInstance.create(tmp, { threads: "2" });
  const conn = await instance.connect();
  let rows = 0;
  try {
    const total = schema.tables.reduce((n, t) => n + 1 + t.links.length, 0);
    let done = 0;
    for (const table of schema.tables) {
      const defs = [`${KEY_COLUMN} VARCHAR PRIMARY KEY`, `${LABEL_COLUMN} VARCHAR`, ...table.columns.map((c) => `${c.name} ${c.type}`)];
      await conn.run(`CREATE TABLE ${table.name} (${defs.join(", ")})`);
      await comment(conn, table.name, table.comment, [
        [KEY_COLUMN, "the entity's IRI"],
        [LABEL_COLUMN, labelComment(table)],
        ...table.columns.map((c): [string, string] => [c.name, c.comment]),
      ]);
      const appender = await conn.createAppender(table.name);
      for (const s of table.subjects) {
        const values = new Map<string, string>();
        for (const t of facts.bySubject.get(s) ?? []) if (!values.has(t.p)) values.set(t.p, stored(t.o));
        appender.appendVarchar(s);
        appender.appendVarchar(facts.label(s));
        for (const c of table.columns) append(appender, c.type, values.get(c.predicate));
        appender.endRow();
        rows++;
      }
      appender.closeSync();
      onProgress?.({ tables: ++done, totalTables: total, rows });
      for (const link of table.links) {
        const defs2 = [`${KEY_COLUMN} VARCHAR`, `value ${link.column.type}`, ...(link.hasLang ? ["lang VARCHAR"] : [])];
        await conn.run(`CREATE TABLE ${link.name} (${defs2.join(", ")})`);
        await comment(conn, link.name, link.comment, [
          [KEY_COLUMN, `${link.owner}.${KEY_COLUMN}`],
          ["value", link.column.comment],
          ...(link.hasLang ? [["lang", "language tag of the value ('' when none)"] as [string, string]] : []),
        ]);
        const la = await conn.createAppender(link.name);
        for (const s of table.subjects) {
          for (const t of facts.bySubject.get(s) ?? []) {
            if (t.p !== link.column.predicate) continue;
            la.appendVarchar(s);
            append(la, link.column.type, stored(t.o));
            if (link.hasLang) la.appendVarchar(t.o.type === "literal" ? (t.o["xml:lang"] ?? "") : "");
            la.endRow();
            rows++;
          }
        }
        la.closeSync();
        onProgress?.({ tables: ++done, totalTables: total, rows });
      }
    }
    await conn.run("CHECKPOINT");
  } catch (e) {
    conn.closeSync();
    instance.closeSync();
    await rm(tmp, { force: true });
    await rm(`${tmp}.wal`, { force: true });
    throw toAppError(e);
  }
  conn.closeSync();
  instance.closeSync();
  await rm(`${tmp}.wal`, { force: true });
  await rename(tmp, path);
}

async function comment(conn: DuckDBConnection, table: string, text: string, columns: [string, string][]): Promise<void> {
  const sql = [`COMMENT ON TABLE ${table} IS ${sqlString(text)}`, ...columns.map(([c, t]) => `COMMENT ON COLUMN ${table}.${c} IS ${sqlString(t)}`)];
  await conn.run(sql.join(";\n"));
}

function sqlError(e: unknown, sql: string): AppError {
  if (isAppError(e)) return e;
  const msg = (e instanceof Error ? e.message : String(e)).replace(/\s+/g, " ").trim();
  if (/^INTERRUPT/i.test(msg)) return new AppError("sql_timeout", "The SQL query was interrupted.");
  if (/Permission Error|read-only mode|file system operations are disabled/i.test(msg)) return new AppError("sql_forbidden", `Refused: ${msg}`);
  // binder / catalog / conversion errors: the model wrote a wrong name or type; it gets the message back
  return new AppError("sql_syntax", msg.slice(0, 1000), { details: { sql: sql.slice(0, 2000) } });
}

let sqlParser: Promise<DuckDBConnection> | undefined;

/**
 * The guard's check of a query without a database (DuckDB parses it in an empty in-memory instance with file access
 * and configuration locked: nothing runs): so a query the user edited is refused before a new attempt is stored.
 */
export async function checkSql(raw: string): Promise<GuardedSql> {
  const sql = normalizeSql(raw);
  sqlParser ??= DuckDBInstance.create(":memory:", { enable_external_access: "false", autoinstall_known_extensions: "false", autoload_known_extensions: "false", threads: "1", lock_configuration: "true" }).then((i) => i.connect());
  const parsed = await (await sqlParser).runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [sql]);
  return checkSerialized(sql, String(parsed.getRows()[0]?.[0] ?? ""));
}

/** Opens a written database read-only, with file access, extension loading and configuration changes locked. */
export async function openInducedDb(path: string, options: { threads?: number; memoryLimit?: string } = {}): Promise<SqlDatabase> {
  const instance = await DuckDBInstance.create(path, {
    access_mode: "READ_ONLY",
    enable_external_access: "false",
    autoinstall_known_extensions: "false",
    autoload_known_extensions: "false",
    threads: String(options.threads ?? 1),
    memory_limit: options.memoryLimit ?? "1GB",
    lock_configuration: "true",
  });
  let closed = false;
  const parser = await instance.connect();

  const check = async (raw: string): Promise<GuardedSql> => {
    const sql = normalizeSql(raw);
    const parsed = await parser.runAndReadAll("SELECT json_serialize_sql($1::VARCHAR)", [sql]);
    return checkSerialized(sql, String(parsed.getRows()[0]?.[0] ?? ""));
  };

  return {
    path,
    check,
    async query(raw, opts = {}) {
      if (closed) throw new AppError("kg_unavailable", "The induced database was closed.");
      if (opts.signal?.aborted) throw new AppError("aborted", "The SQL query was cancelled.");
      const guarded = await check(raw);
      const maxRows = Math.max(1, opts.maxRows ?? DEFAULT_SQL_MAX_ROWS);
      const timeoutMs = opts.timeoutMs ?? DEFAULT_SQL_TIMEOUT_MS;
      const conn = await instance.connect();
      let why: "timeout" | "abort" | undefined;
      const stop = (reason: "timeout" | "abort") => {
        why ??= reason;
        conn.interrupt();
      };
      const timer = setTimeout(() => stop("timeout"), timeoutMs);
      const onAbort = () => stop("abort");
      opts.signal?.addEventListener("abort", onAbort, { once: true });
      const started = performance.now();
      try {
        const reader = await conn.streamAndReadUntil(guarded.sql, maxRows + 1);
        const all = reader.getRowsJson() as SqlResult["rows"];
        return {
          columns: reader.columnNames(),
          types: reader.columnTypes().map(String),
          rows: all.slice(0, maxRows),
          truncated: all.length > maxRows || !reader.done,
          aggregate: guarded.aggregate,
          ms: performance.now() - started,
        };
      } catch (e) {
        if (why === "timeout") throw new AppError("sql_timeout", `The SQL query took longer than ${timeoutMs} ms and was stopped.`, { details: { timeoutMs } });
        if (why === "abort") throw new AppError("aborted", "The SQL query was cancelled.");
        throw sqlError(e, guarded.sql);
      } finally {
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
        conn.closeSync();
      }
    },
    close() {
      if (closed) return;
      closed = true;
      parser.closeSync();
      instance.closeSync();
    },
  };
}

export type { InducedColumn };
