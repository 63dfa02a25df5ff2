// The one Prisma client of the process: SQLite through the libsql driver adapter (with per-connection pragmas), or
// PostgreSQL through the pg adapter when DATABASE_URL is a postgres(ql):// URL.
import "server-only";
import { createClient, type Client, type Config } from "@libsql/client";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import { PrismaClient as PostgresPrismaClient } from "@/generated/prisma-pg/client";

/** Used when DATABASE_URL is unset; the same default as prisma.config.ts (relative to the working directory). */
export const DEFAULT_DATABASE_URL = "file:./.data/chatty-kg.db";

/** How long a connection waits for another process's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 10_000;

// WAL lets readers run while one writer writes; foreign_keys makes ON DELETE CASCADE work (SQLite default is off).
// synchronous=NORMAL: in WAL mode a commit no longer fsyncs (only checkpoints do); the database cannot be corrupted,
// at worst the last commits before a power cut are lost. FULL made every trace write a blocking fsync on the event loop.
const CONNECTION_PRAGMAS = [`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`, "PRAGMA foreign_keys = ON", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = NORMAL"];

/**
 * Wraps a libsql client so every connection it opens gets the pragmas. The libsql client hands its connection to
 * each transaction and lazily opens a fresh one afterwards, and busy_timeout/foreign_keys are per connection.
 */
export function withConnectionPragmas(inner: Client): Client {
  let fresh = true;
  const prepare = async () => {
    if (!fresh) return;
    fresh = false;
    for (const sql of CONNECTION_PRAGMAS) await inner.execute(sql);
  };
  return new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === "execute" || prop === "batch" || prop === "executeMultiple") {
        return async (...args: unknown[]) => {
          await prepare();
          return (target[prop] as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      if (prop === "transaction") {
        return async () => {
          await prepare();
          // Prisma asks for "deferred"; every transaction of ours writes, and BEGIN IMMEDIATE takes the write lock up
          // front (waiting up to busy_timeout) instead of failing later when a read snapshot cannot be upgraded.
          const tx = await target.transaction("write");
          fresh = true; // the client opens a new connection on its next use
          return tx;
        };
      }
      const value = Reflect.get(target, prop, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The libsql adapter factory whose clients apply the pragmas. */
class PragmaLibSQL extends PrismaLibSQL {
  override createClient(config: Config): Client {
    return withConnectionPragmas(createClient(config));
  }
}

export type Dialect = "sqlite" | "postgres";

/** Which database a DATABASE_URL names: postgres:// or postgresql:// is PostgreSQL, anything else (file:) SQLite. */
export function dialectOfUrl(url: string): Dialect {
  return /^postgres(ql)?:\/\//i.test(url.trim()) ? "postgres" : "sqlite";
}

// On the client itself under a registered symbol: Next bundles instrumentation.ts and the routes separately, so a
// client created by one bundle's copy of this module is used through another's (see getDb).
const DIALECT = Symbol.for("chatty-kg.db.dialect");

function tagged(db: PrismaClient, dialect: Dialect): PrismaClient {
  Object.defineProperty(db, DIALECT, { value: dialect, enumerable: false });
  return db;
}

/** The dialect of a client made by createDb (raw SQL differs per dialect: lib/db/raw-sql.ts). */
export function dialectOf(db: PrismaClient): Dialect {
  return (db as unknown as Record<symbol, Dialect | undefined>)[DIALECT] ?? "sqlite";
}

/** Pool size per process for PostgreSQL (DATABASE_POOL_SIZE, default 10): concurrent turns each need a connection briefly. */
function poolSize(): number {
  const n = Number(process.env.DATABASE_POOL_SIZE ?? 10);
  return Number.isInteger(n) && n > 0 ? n : 10;
}

export function createDb(url: string = process.env.DATABASE_URL || DEFAULT_DATABASE_URL): PrismaClient {
  if (dialectOfUrl(url) === "postgres") {
    // Both generated clients have the same models and share Prisma's runtime; the queries are typed against the
    // SQLite one, and the statements that differ per dialect go through lib/db/raw-sql.ts.
    return tagged(new PostgresPrismaClient({ adapter: new PrismaPg({ connectionString: url, max: poolSize() }) }) as unknown as PrismaClient, "postgres");
  }
  return tagged(new PrismaClient({ adapter: new PragmaLibSQL({ url }) }), "sqlite");
}

// Cached on globalThis so Next's dev-mode module reloads do not open a new client per edit.
const cache = globalThis as unknown as { __chattyKgDb?: PrismaClient };

/** The process-wide client for DATABASE_URL. */
export function getDb(): PrismaClient {
  cache.__chattyKgDb ??= createDb();
  return cache.__chattyKgDb;
}

export type { PrismaClient };
