// Rate limits on a fake clock: per-session and global buckets, refill, Retry-After, env names and defaults.
import { describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/errors";
import { createRateLimiter, rateLimitConfigFromEnv, type RateLimiter } from "./rate-limit";

function refusal(limiter: RateLimiter, session: string): AppError | undefined {
  try {
    limiter.take(session);
    return undefined;
  } catch (e) {
    if (!isAppError(e, "rate_limited")) throw e;
    return e;
  }
}

describe("rate limiter", () => {
  it("lets a session burst up to its limit, then refuses with a 429 saying when to come back", () => {
    let t = 1_000_000;
    const limiter = createRateLimiter({ sessionPerMinute: 3, globalPerMinute: 0 }, () => t);
    for (let i = 0; i < 3; i++) expect(refusal(limiter, "a")).toBeUndefined();
    const e = refusal(limiter, "a")!;
    expect(e.status).toBe(429);
    expect(e.message).toMatch(/at most 3 a minute \(RATE_LIMIT_SESSION_PER_MINUTE\)\. Try again in 20 s/);
    expect(e.details).toMatchObject({ scope: "session", retryAfterS: 20 });
    // another browser is not affected
    expect(refusal(limiter, "b")).toBeUndefined();
    // one run comes back every 20 s (3 a minute)
    t += 19_000;
    expect(refusal(limiter, "a")?.details?.retryAfterS).toBe(1);
    t += 1_000;
    expect(refusal(limiter, "a")).toBeUndefined();
    expect(refusal(limiter, "a")).toBeDefined();
  });

  it("a global limit holds for all sessions together, and a refused run uses up nothing", () => {
    let t = 0;
    const limiter = createRateLimiter({ sessionPerMinute: 2, globalPerMinute: 3 }, () => t);
    expect(refusal(limiter, "a")).toBeUndefined();
    expect(refusal(limiter, "b")).toBeUndefined();
    expect(refusal(limiter, "c")).toBeUndefined();
    const e = refusal(limiter, "d")!;
    expect(e.details).toMatchObject({ scope: "global", retryAfterS: 20 });
    expect(e.message).toMatch(/RATE_LIMIT_GLOBAL_PER_MINUTE/);
    t += 20_000;
    // "d" was refused by the server's limit, so its own bucket is still full: two runs, one per refill
    expect(refusal(limiter, "d")).toBeUndefined();
    t += 20_000;
    expect(refusal(limiter, "d")).toBeUndefined();
    t += 60_000;
    expect(refusal(limiter, "d")).toBeUndefined();
    expect(refusal(limiter, "d")).toBeUndefined();
    expect(refusal(limiter, "d")?.details?.scope).toBe("session");
  });

  it("0 turns a limit off", () => {
    const limiter = createRateLimiter({ sessionPerMinute: 0, globalPerMinute: 0 }, () => 0);
    for (let i = 0; i < 1000; i++) limiter.take("a");
  });

  it("reads RATE_LIMIT_SESSION_PER_MINUTE and RATE_LIMIT_GLOBAL_PER_MINUTE, with defaults", () => {
    expect(rateLimitConfigFromEnv({})).toEqual({ sessionPerMinute: 20, globalPerMinute: 300 });
    expect(rateLimitConfigFromEnv({ RATE_LIMIT_SESSION_PER_MINUTE: "5", RATE_LIMIT_GLOBAL_PER_MINUTE: "0" })).toEqual({ sessionPerMinute: 5, globalPerMinute: 0 });
    expect(() => rateLimitConfigFromEnv({ RATE_LIMIT_SESSION_PER_MINUTE: "lots" })).toThrow(/RATE_LIMIT_SESSION_PER_MINUTE must be a whole number/);
  });
});
