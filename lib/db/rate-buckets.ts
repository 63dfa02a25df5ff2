// Rate-limit buckets in the database, so every server process and machine on one database counts against the same
// limits. One transaction takes a token from each bucket of a request, all or none: the rows are locked (PostgreSQL
// FOR UPDATE; SQLite's write transaction holds the database), so two processes cannot both take the last token.
import "server-only";
import { refill, WINDOW_MS, type Bucket } from "@/lib/token-bucket";
import type { SqlDriver, SqlExecutor } from "./client";

export interface BucketSpec {
  key: string;
  /** tokens when full, refilled at this many per minute */
  capacity: number;
}

export type TakeOutcome = { ok: true } | { ok: false; /** the spec that had no token */ index: number; waitMs: number };

class Refused extends Error {
  constructor(readonly index: number, readonly waitMs: number) {
    super("rate bucket empty");
  }
}

// the database's clock, not this process's: machines behind one load balancer need not agree on the time
const NOW_SQL = { postgres: `SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::float8 AS "now"`, sqlite: `SELECT (julianday('now') - 2440587.5) * 86400000.0 AS "now"` };

export interface RateBucketStore {
  /** Takes one token from every bucket, or none when one is empty (then says which, and how long until it refills). */
  take(specs: BucketSpec[], now?: number): Promise<TakeOutcome>;
  /** Deletes buckets idle for a window (they are full again, as a missing row is); returns how many. */
  prune(now?: number): Promise<number>;
}

export function createRateBucketStore(db: SqlDriver): RateBucketStore {
  const pg = db.dialect === "postgres";
  const p = (i: number) => (pg ? `$${i}` : `?${i}`);
  const clock = async (ex: SqlExecutor, now?: number) => now ?? Number((await ex.query(NOW_SQL[db.dialect]))[0].now);

  return {
    async take(specs, now) {
      try {
        await db.transaction(async (tx) => {
          const t = await clock(tx, now);
          const taken: Bucket[] = [];
          for (const [index, spec] of specs.entries()) {
            await tx.execute(`INSERT INTO "RateBucket" ("key", "tokens", "at") VALUES (${p(1)}, ${p(2)}, ${p(3)}) ON CONFLICT ("key") DO NOTHING`, [spec.key, spec.capacity, t]);
            const [row] = await tx.query(`SELECT "tokens", "at" FROM "RateBucket" WHERE "key" = ${p(1)}${pg ? " FOR UPDATE" : ""}`, [spec.key]);
            const bucket: Bucket = { tokens: Number(row.tokens), at: Number(row.at) };
            const wait = refill(bucket, spec.capacity, t);
            // thrown, so the transaction rolls back and no bucket before this one loses its token
            if (wait > 0) throw new Refused(index, wait);
            taken.push(bucket);
          }
          for (const [i, spec] of specs.entries()) {
            await tx.execute(`UPDATE "RateBucket" SET "tokens" = ${p(1)}, "at" = ${p(2)} WHERE "key" = ${p(3)}`, [taken[i].tokens - 1, taken[i].at, spec.key]);
          }
        });
        return { ok: true };
      } catch (e) {
        if (e instanceof Refused) return { ok: false, index: e.index, waitMs: e.waitMs };
        throw e;
      }
    },

    async prune(now) {
      const t = await clock(db, now);
      return db.execute(`DELETE FROM "RateBucket" WHERE "at" < ${p(1)}`, [t - WINDOW_MS]);
    },
  };
}
