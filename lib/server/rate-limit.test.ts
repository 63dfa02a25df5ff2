// Rate limits on a fake clock: per-session and global buckets, refill, Retry-After, env names and defaults — for the
// in-process limiter and for the shared one whose buckets live in the database (SQLite here; PostgreSQL when
// TEST_DATABASE_URL names a server). Two processes sharing one PostgreSQL limit: test/hardening/shared-rate-limit.test.ts.
import { afterAll, describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/errors";
import { createRateBucketStore } from "@/lib/db/rate-buckets";
import { closeDb, createDb, driverOf } from "@/lib/db/client";
import { testPostgresUrl } from "@/lib/db/testing/postgres";
import { createTempDb, type TempDb } from "./testing/temp-db";
import { createRateLimiter, createSharedRateLimiter, rateLimitConfigFromEnv, rateLimitStoreFromEnv, type RateLimitConfig, type RateLimiter } from "./rate-limit";

async function refusal(limiter: RateLimiter, session: string): Promise<AppError | undefined> {
  try {
    await limiter.acquire(session);
    return undefined;
  } catch (e) {
    if (!isAppError(e, "rate_limited")) throw e;
    return e;
  }
}

type MakeLimiter = (config: RateLimitConfig, now: () => number) => Promise<RateLimiter>;

const dbs: TempDb[] = [];
afterAll(async () => {
  for (const db of dbs) await db.close();
});

function inDatabase(dialect: "sqlite" | "postgres"): MakeLimiter {
  return async (config, now) => {
    const tmp = await createTempDb("chatty-kg-rate-", dialect);
    dbs.push(tmp);
    const store = createRateBucketStore(driverOf(tmp.db));
    return createSharedRateLimiter(config, { take: (specs) => store.take(specs, now()), prune: () => store.prune(now()) }, "run");
  };
}

const kinds: [string, MakeLimiter, string | undefined][] = [
  ["in the process", async (config, now) => createRateLimiter(config, now), undefined],
  ["in the database (SQLite)", inDatabase("sqlite"), undefined],
  ["in the database (PostgreSQL)", inDatabase("postgres"), testPostgresUrl() ? undefined : "no TEST_DATABASE_URL"],
];

describe.each(kinds)("rate limiter %s", (_name, make, skip) => {
  it.skipIf(skip)("lets a session burst up to its limit, then refuses with a 429 saying when to come back", async () => {
    let t = 1_000_000;
    const limiter = await make({ sessionPerMinute: 3, globalPerMinute: 0 }, () => t);
    for (let i = 0; i < 3; i++) expect(await refusal(limiter, "a")).toBeUndefined();
    const e = (await refusal(limiter, "a"))!;
    expect(e.status).toBe(429);
    expect(e.message).toMatch(/at most 3 a minute \(RATE_LIMIT_SESSION_PER_MINUTE\)\. Try again in 20 s/);
    expect(e.details).toMatchObject({ scope: "session", retryAfterS: 20 });
    // another browser is not affected
    expect(await refusal(limiter, "b")).toBeUndefined();
    // one run comes back every 20 s (3 a minute)
    t += 19_000;
    expect((await refusal(limiter, "a"))?.details?.retryAfterS).toBe(1);
    t += 1_000;
    expect(await refusal(limiter, "a")).toBeUndefined();
    expect(await refusal(limiter, "a")).toBeDefined();
  });

  it.skipIf(skip)("a global limit holds for all sessions together, and a refused run uses up nothing", async () => {
    let t = 0;
    const limiter = await make({ sessionPerMinute: 2, globalPerMinute: 3 }, () => t);
    expect(await refusal(limiter, "a")).toBeUndefined();
    expect(await refusal(limiter, "b")).toBeUndefined();
    expect(await refusal(limiter, "c")).toBeUndefined();
    const e = (await refusal(limiter, "d"))!;
    expect(e.details).toMatchObject({ scope: "global", retryAfterS: 20 });
    expect(e.message).toMatch(/RATE_LIMIT_GLOBAL_PER_MINUTE/);
    t += 20_000;
    // "d" was refused by the server's limit, so its own bucket is still full: two runs, one per refill
    expect(await refusal(limiter, "d")).toBeUndefined();
    t += 20_000;
    expect(await refusal(limiter, "d")).toBeUndefined();
    t += 60_000;
    expect(await refusal(limiter, "d")).toBeUndefined();
    expect(await refusal(limiter, "d")).toBeUndefined();
    expect((await refusal(limiter, "d"))?.details?.scope).toBe("session");
  });

  it.skipIf(skip)("0 turns a limit off", async () => {
    const limiter = await make({ sessionPerMinute: 0, globalPerMinute: 0 }, () => 0);
    for (let i = 0; i < 100; i++) await limiter.acquire("a");
  });
});

describe("shared rate limiter", () => {
  it("two limiters on one database (two server processes) count one limit: the 21st run of a session is refused by either", async () => {
    const t = 5_000_000;
    const make = inDatabase("sqlite");
    const a = await make({ sessionPerMinute: 20, globalPerMinute: 0 }, () => t);
    // the second "process": its own limiter and driver on the same database file
    const tmp = dbs[dbs.length - 1];
    const other = createDb(tmp.url);
    try {
      const store = createRateBucketStore(driverOf(other));
      const b = createSharedRateLimiter({ sessionPerMinute: 20, globalPerMinute: 0 }, { take: (s) => store.take(s, t), prune: () => store.prune(t) }, "run");
      for (let i = 0; i < 20; i++) expect(await refusal(i % 2 ? a : b, "s")).toBeUndefined();
      expect((await refusal(a, "s"))?.details).toMatchObject({ scope: "session" });
      expect((await refusal(b, "s"))?.details).toMatchObject({ scope: "session" });
      expect(await refusal(b, "another session")).toBeUndefined();
    } finally {
      await closeDb(other);
    }
  });

  it("idle buckets are pruned: they are full again, as a missing row is", async () => {
    const tmp = await createTempDb("chatty-kg-rate-", "sqlite");
    dbs.push(tmp);
    const store = createRateBucketStore(driverOf(tmp.db));
    expect(await store.take([{ key: "k", capacity: 1 }], 0)).toEqual({ ok: true });
    expect(await store.take([{ key: "k", capacity: 1 }], 1)).toMatchObject({ ok: false, index: 0 });
    expect(await store.prune(30_000)).toBe(0);
    expect(await store.prune(61_000)).toBe(1);
    expect(await store.take([{ key: "k", capacity: 1 }], 61_000)).toEqual({ ok: true });
  });
});

describe("rate limit settings", () => {
  it("reads RATE_LIMIT_SESSION_PER_MINUTE and RATE_LIMIT_GLOBAL_PER_MINUTE, with defaults", () => {
    expect(rateLimitConfigFromEnv({})).toEqual({ sessionPerMinute: 20, globalPerMinute: 300 });
    expect(rateLimitConfigFromEnv({ RATE_LIMIT_SESSION_PER_MINUTE: "5", RATE_LIMIT_GLOBAL_PER_MINUTE: "0" })).toEqual({ sessionPerMinute: 5, globalPerMinute: 0 });
    expect(() => rateLimitConfigFromEnv({ RATE_LIMIT_SESSION_PER_MINUTE: "lots" })).toThrow(/RATE_LIMIT_SESSION_PER_MINUTE must be a whole number/);
  });

  it("counts in the database on PostgreSQL and in the process on SQLite, unless RATE_LIMIT_STORE says otherwise", () => {
    expect(rateLimitStoreFromEnv("postgres", {})).toBe("database");
    expect(rateLimitStoreFromEnv("sqlite", {})).toBe("process");
    expect(rateLimitStoreFromEnv("sqlite", { RATE_LIMIT_STORE: "database" })).toBe("database");
    expect(() => rateLimitStoreFromEnv("postgres", { RATE_LIMIT_STORE: "redis" })).toThrow(/RATE_LIMIT_STORE must be/);
  });
});
