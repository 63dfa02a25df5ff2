// Rate limits for the routes that run a strategy (and so call an LLM): a token bucket per session and one for the server.
import { AppError } from "@/lib/errors";
import { refill, type Bucket } from "@/lib/token-bucket";

type Env = Record<string, string | undefined>;

export const SESSION_LIMIT_VAR = "RATE_LIMIT_SESSION_PER_MINUTE";
export const GLOBAL_LIMIT_VAR = "RATE_LIMIT_GLOBAL_PER_MINUTE";
/** A person asks a question every few seconds at most; retries and re-runs count too. */
export const DEFAULT_SESSION_PER_MINUTE = 20;
/** For everyone together; the load test's burst (20 browsers × 5 turns) stays under it. */
export const DEFAULT_GLOBAL_PER_MINUTE = 300;

// buckets that have refilled are dropped once the map grows past this, so idle sessions cost no memory
const PRUNE_AT = 10_000;
// the shared store deletes idle buckets about once in this many requests (a full bucket and a missing row are the same)
const SHARED_PRUNE_EVERY = 200;

export interface RateLimitConfig {
  /** runs per minute for one browser session (0: no limit); bursts up to this many */
  sessionPerMinute: number;
  /** runs per minute for the whole server (0: no limit) */
  globalPerMinute: number;
}

function limitFromEnv(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new AppError("bad_request", `${name} must be a whole number of runs per minute, 0 for no limit (got "${raw}").`);
  return n;
}

export function rateLimitConfigFromEnv(env: Env = process.env): RateLimitConfig {
  return {
    sessionPerMinute: limitFromEnv(env, SESSION_LIMIT_VAR, DEFAULT_SESSION_PER_MINUTE),
    globalPerMinute: limitFromEnv(env, GLOBAL_LIMIT_VAR, DEFAULT_GLOBAL_PER_MINUTE),
  };
}

export interface RateLimiter {
  /** Counts one run for the session (or address), or throws rate_limited (429) with details.retryAfterS and nothing counted. */
  acquire(sessionId: string): Promise<void>;
}

/** The refusal's text for a scope; the default speaks of questions and names the env vars above. */
export type LimitMessage = (scope: "session" | "global", perMinute: number, retryAfterS: number) => string;

const questionsMessage: LimitMessage = (scope, perMinute, retryAfterS) =>
  scope === "session"
    ? `Too many questions from this browser: at most ${perMinute} a minute (${SESSION_LIMIT_VAR}). Try again in ${retryAfterS} s.`
    : `The server is answering too many questions right now: at most ${perMinute} a minute for everyone (${GLOBAL_LIMIT_VAR}). Try again in ${retryAfterS} s.`;

export function createRateLimiter(config: RateLimitConfig, now: () => number = Date.now, message: LimitMessage = questionsMessage): RateLimiter {
  const sessions = new Map<string, Bucket>();
  const global: Bucket = { tokens: config.globalPerMinute, at: now() };

  function prune(t: number) {
    for (const [id, b] of sessions) if (refill(b, config.sessionPerMinute, t) === 0 && b.tokens >= config.sessionPerMinute) sessions.delete(id);
  }

  return {
    async acquire(sessionId) {
      const t = now();
      let session: Bucket | undefined;
      if (config.sessionPerMinute > 0) {
        session = sessions.get(sessionId);
        if (!session) {
          if (sessions.size >= PRUNE_AT) prune(t);
          session = { tokens: config.sessionPerMinute, at: t };
          sessions.set(sessionId, session);
        }
        const wait = refill(session, config.sessionPerMinute, t);
        if (wait > 0) throw limited("session", config.sessionPerMinute, wait, message);
      }
      if (config.globalPerMinute > 0) {
        const wait = refill(global, config.globalPerMinute, t);
        if (wait > 0) throw limited("global", config.globalPerMinute, wait, message);
        global.tokens -= 1;
      }
      // only counted once both allowed it: a run refused by the server's limit does not use up the session's
      if (session) session.tokens -= 1;
    },
  };
}

function limited(scope: "session" | "global", perMinute: number, waitMs: number, message: LimitMessage): AppError {
  const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError("rate_limited", message(scope, perMinute, retryAfterS), { details: { scope, limitPerMinute: perMinute, retryAfterS } });
}

/** Where the shared limiter keeps its buckets (lib/db/rate-buckets.ts implements it on the app's database). */
export interface SharedBucketStore {
  take(specs: { key: string; capacity: number }[]): Promise<{ ok: true } | { ok: false; index: number; waitMs: number }>;
  prune(): Promise<number>;
}

/**
 * The same limits, counted in a store every server process shares (the PostgreSQL database): N processes or machines
 * allow the configured rate once, not N times. `prefix` keeps limiters apart in one store ("run", "signin").
 */
export function createSharedRateLimiter(config: RateLimitConfig, store: SharedBucketStore, prefix: string, message: LimitMessage = questionsMessage): RateLimiter {
  let calls = 0;
  return {
    async acquire(sessionId) {
      const specs: { key: string; capacity: number; scope: "session" | "global" }[] = [];
      if (config.sessionPerMinute > 0) specs.push({ key: `${prefix}:session:${sessionId}`, capacity: config.sessionPerMinute, scope: "session" });
      if (config.globalPerMinute > 0) specs.push({ key: `${prefix}:global`, capacity: config.globalPerMinute, scope: "global" });
      if (specs.length === 0) return;
      const outcome = await store.take(specs.map(({ key, capacity }) => ({ key, capacity })));
      if (++calls % SHARED_PRUNE_EVERY === 0) void store.prune().catch((e) => console.warn(`[chatty-kg] pruning rate buckets failed: ${e instanceof Error ? e.message : e}`));
      if (!outcome.ok) {
        const spec = specs[outcome.index];
        throw limited(spec.scope, spec.capacity, outcome.waitMs, message);
      }
    },
  };
}

export const RATE_LIMIT_STORE_VAR = "RATE_LIMIT_STORE";

/** Where limits are counted: the database on PostgreSQL (shared by every process), in the process on SQLite; RATE_LIMIT_STORE=database|process overrides. */
export function rateLimitStoreFromEnv(dialect: "sqlite" | "postgres", env: Env = process.env): "database" | "process" {
  const raw = env[RATE_LIMIT_STORE_VAR]?.trim();
  if (!raw) return dialect === "postgres" ? "database" : "process";
  if (raw === "database" || raw === "process") return raw;
  throw new AppError("bad_request", `${RATE_LIMIT_STORE_VAR} must be "database" or "process" (got "${raw}").`);
}
