// The one Prisma client of the process: SQLite through the libsql driver adapter (with per-connection pragmas), or
// PostgreSQL through the pg adapter when DATABASE_URL is a postgres(ql):// URL; and the driver under it (SqlDriver),
// which the few hand-written hot-path statements use directly (lib/db/raw-sql.ts).
import "server-only";
import { createClient, type Client, type Config, type InValue, type Transaction } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/generated/prisma-pg/client";

/** Used when DATABASE_URL is unset; the same default as prisma.config.ts (relative to the working directory). */
export const DEFAULT_DATABASE_URL = "file:./.data/chatty-kg.db";

/** How long a connection waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 10_000;

// WAL lets readers run while one writer writes; foreign_keys makes ON DELETE CASCADE work (SQLite default is off).
// synchronous=NORMAL: in WAL mode a commit no longer fsyncs (only checkpoints do); the database cannot be corrupted,
// at worst the last commits before a power cut are lost. FULL made every trace write a blocking fsync on the event loop.
// busy_timeout first, so the statements after it wait for locks.
async function applyPragmas(c: Client): Promise<void> {
  await c.execute(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  await c.execute("PRAGMA foreign_keys = ON");
  // WAL persists in the file. Switching a rollback-journal database (as migrations leave it) upgrades a read lock to
  // the write lock without the busy handler, so it fails at once while another connection writes: only when needed.
  const mode = (await c.execute("PRAGMA journal_mode")).rows[0]?.[0];
  if (String(mode).toLowerCase() !== "wal") await c.execute("PRAGMA journal_mode = WAL");
  await c.execute("PRAGMA synchronous = NORMAL");
}

/** SQLITE_BUSY ("database is locked") and its extended codes. */
function isBusy(e: unknown): boolean {
  const { code, rawCode } = (e ?? {}) as { code?: unknown; rawCode?: unknown };
  return (typeof rawCode === "number" && (rawCode & 0xff) === 5) || (typeof code === "string" && code.startsWith("SQLITE_BUSY"));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An async lock: resolves to a release function once every earlier holder has released (releasing twice is a no-op). */
function createLock(): () => Promise<() => void> {
  let tail = Promise.resolve();
  return async () => {
    let open!: () => void;
    const prev = tail;
    tail = prev.then(() => new Promise<void>((resolve) => (open = resolve)));
    await prev;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      open();
    };
  };
}

/** The transaction, releasing `release` once it has ended (commit, rollback or close, whichever ends it). */
function releasedWhenEnded(tx: Transaction, release: () => void): Transaction {
  const check = () => {
    if (tx.closed) release();
  };
  return new Proxy(tx, {
    get(target, prop) {
      const value = Reflect.get(target, prop); // target as receiver: the libsql classes keep #private fields
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => {
        let out: unknown;
        try {
          out = value.apply(target, args);
        } catch (e) {
          check();
          throw e;
        }
        if (out instanceof Promise) return out.finally(check);
        check();
        return out;
      };
    },
  });
}

/**
 * Wraps a libsql client so every connection it opens gets the pragmas (the client hands its connection to each
 * transaction and lazily opens a fresh one; the pragmas are per connection), and its callers take turns, Prisma's and
 * the driver's alike: the calls are synchronous, so one waiting in SQLite's busy handler for a lock held by a
 * transaction of this process blocks the event loop that transaction needs, until SQLITE_BUSY.
 */
export function withConnectionPragmas(inner: Client): Client {
  let fresh = true;
  const lock = createLock();
  const prepare = async () => {
    if (!fresh) return;
    // SQLITE_BUSY that skipped the busy handler (the WAL switch above) is waited out here, as busy_timeout would
    const deadline = Date.now() + BUSY_TIMEOUT_MS;
    for (let wait = 5; ; wait = Math.min(2 * wait, 250)) {
      try {
        await applyPragmas(inner);
        break;
      } catch (e) {
        if (!isBusy(e) || Date.now() + wait > deadline) throw e;
        await sleep(wait);
      }
    }
    fresh = false;
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "execute" || prop === "batch" || prop === "executeMultiple") {
        return async (...args: unknown[]) => {
          const release = await lock();
          try {
            await prepare();
            return await (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
          } finally {
            release();
          }
        };
      }
      if (prop === "transaction") {
        return async () => {
          const release = await lock();
          try {
            await prepare();
            // Prisma asks for "deferred"; every transaction of ours writes, and BEGIN IMMEDIATE takes the write lock up
            // front (waiting up to busy_timeout) instead of failing later when a read snapshot cannot be upgraded.
            const tx = await target.transaction("write");
            fresh = true; // the client opens a new connection on its next use
            return releasedWhenEnded(tx, release);
          } catch (e) {
            release();
            throw e;
          }
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The libsql adapter factory, on the client we made (with the pragmas), so the driver and Prisma share it. */
class SharedLibSQL extends PrismaLibSQL {
  readonly #client: Client;
  constructor(client: Client, config: Config) {
    super(config);
    this.#client = client;
  }
  override createClient(): Client {
    return this.#client;
  }
}

export type Dialect = "sqlite" | "postgres";

/** Which database a DATABASE_URL names: postgres:// or postgresql:// is PostgreSQL, anything else (file:) SQLite. */
export function dialectOfUrl(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url.trim()) ? "postgres" : "sqlite";
}

/** SQL straight to the driver Prisma uses (no query compiler on the way): the hot-path statements of a turn. */
export interface SqlExecutor {
  /** rows as plain objects (column name → value); `?` placeholders on SQLite, `$1…` on PostgreSQL */
  query(sql: string, args?: unknown[]): Promise<Record<string, unknown>[]>;
  /** the number of rows changed */
  execute(sql: string, args?: unknown[]): Promise<number>;
}

export interface SqlDriver extends SqlExecutor {
  readonly dialect: Dialect;
  /** the statements of `run` in one transaction */
  transaction<T>(run: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  /** closes the connection(s); later calls do nothing */
  close(): Promise<void>;
}

function once(fn: () => Promise<void> | void): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= Promise.resolve().then(fn));
}

function libsqlDriver(client: Client): SqlDriver {
  const rowsOf = (rs: { columns: string[]; rows: ArrayLike<unknown>[] }) =>
    rs.rows.map((row) => Object.fromEntries(rs.columns.map((c, i) => [c, row[i]])));
  const on = (c: Pick<Client, "execute">): SqlExecutor => ({
    query: async (sql, args = []) => rowsOf(await c.execute({ sql, args: args as InValue[] })),
    execute: async (sql, args = []) => (await c.execute({ sql, args: args as InValue[] })).rowsAffected,
  });
  return {
    dialect: "sqlite",
    ...on(client),
    async transaction(run) {
      const tx = await client.transaction("write");
      try {
        const out = await run(on(tx));
        await tx.commit();
        return out;
      } finally {
        tx.close();
      }
    },
    close: once(() => client.close()),
  };
}

// Prisma keeps DateTime in timestamp(3) WITHOUT time zone, in UTC; pg would read those as local time.
const PG_TIMESTAMP = 1114;
const pgTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === PG_TIMESTAMP && format !== "binary" ? (v: string) => new Date(`${v.replace(" ", "T")}Z`) : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
};

function pgDriver(pool: pg.Pool): SqlDriver {
  const on = (c: pg.Pool | pg.PoolClient): SqlExecutor => ({
    query: async (sql, args = []) => (await c.query({ text: sql, values: args, types: pgTypes })).rows as Record<string, unknown>[],
    execute: async (sql, args = []) => (await c.query({ text: sql, values: args, types: pgTypes })).rowCount ?? 0,
  });
  return {
    dialect: "postgres",
    ...on(pool),
    async transaction(run) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const out = await run(on(client));
        await client.query("COMMIT");
        return out;
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw e;
      } finally {
        client.release();
      }
    },
    close: once(() => pool.end()),
  };
}

// On the client itself under a registered symbol: Next bundles instrumentation.ts and the routes separately, so a
// client created by one bundle's copy of this module is used through another's (see getDb).
const DRIVER = Symbol.for("chatty-kg.db.driver");

function withDriver(db: PrismaClient, driver: SqlDriver): PrismaClient {
  Object.defineProperty(db, DRIVER, { value: driver, enumerable: false });
  return db;
}

/** The driver under a client made by createDb. */
export function driverOf(db: PrismaClient): SqlDriver {
  const driver = (db as unknown as Record<symbol, SqlDriver | undefined>)[DRIVER];
  if (!driver) throw new Error("This Prisma client was not made by createDb (lib/db/client.ts): its driver is unknown.");
  return driver;
}

/** The dialect of a client made by createDb (raw SQL differs per dialect: lib/db/raw-sql.ts). */
export function dialectOf(db: PrismaClient): Dialect {
  return driverOf(db).dialect;
}

/** Pool size per process for PostgreSQL (DATABASE_POOL_SIZE, default 10): concurrent turns each need a connection briefly. */
function poolSize(): number {
  const n = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

export function createDb(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): PrismaClient {
  if (dialectOfUrl(url) === "postgres") {
    const pool = new pg.Pool({ connectionString: url, max: poolSize() });
    // an idle connection the server closed (restart, admin) must not crash the process; the pool opens a new one
    pool.on("error", (e) => console.warn(`[chatty-kg] PostgreSQL connection lost: ${e.message}`));
    // Both generated clients have the same models and share Prisma's runtime; the queries are typed against the
    // SQLite one, and the statements that differ per dialect go through lib/db/raw-sql.ts.
    const db = new PostgresPrismaClient({ adapter: new PrismaPg(pool) }) as unknown as PrismaClient;
    return withDriver(db, pgDriver(pool));
  }
  const client = withConnectionPragmas(createClient({ url }));
  return withDriver(new PrismaClient({ adapter: new SharedLibSQL(client, { url }) }), libsqlDriver(client));
}

/** Disconnects Prisma and closes the driver's connections (the pool on PostgreSQL). */
export async function closeDb(db: PrismaClient): Promise<void> {
  await db.$disconnect();
  await driverOf(db).close();
}

// Cached on globalThis so Next's dev-mode module reloads do not open a new client per edit.
const cache = globalThis as unknown as { __chattyKgDb?: PrismaClient };

/** The process-wide client for DATABASE_URL. */
export function getDb(): PrismaClient {
  cache.__chattyKgDb ??= createDb();
  return cache.__chattyKgDb;
}

export type { PrismaClient };
