// Rate limits for the routes that run a strategy (and so call an LLM): a token bucket per session and one for the server.
import { AppError } from "@/lib/errors";

type Env = Record<string, string | undefined>;

export const SESSION_LIMIT_VAR = "RATE_LIMIT_SESSION_PER_MINUTE";
export const GLOBAL_LIMIT_VAR = "RATE_LIMIT_GLOBAL_PER_MINUTE";
/** A person asks a question every few seconds at most; retries and re-runs count too. */
export const DEFAULT_SESSION_PER_MINUTE = 20;
/** For everyone together; the load test's burst (20 browsers × 5 turns) stays under it. */
export const DEFAULT_GLOBAL_PER_MINUTE = 300;

const WINDOW_MS = 60_000;
// buckets that have refilled are dropped once the map grows past this, so idle sessions cost no memory
const PRUNE_AT = 10_000;

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

interface Bucket {
  tokens: number;
  at: number;
}

/** Refills a bucket of `capacity` tokens at capacity per minute up to `now`; returns ms until one token is there (0: now). */
function refill(b: Bucket, capacity: number, now: number): number {
  const rate = capacity / WINDOW_MS;
  b.tokens = Math.min(capacity, b.tokens + Math.max(0, now - b.at) * rate);
  b.at = now;
  return b.tokens >= 1 ? 0 : (1 - b.tokens) / rate;
}

export interface RateLimiter {
  /** Counts one run for the session, or throws rate_limited (429) with details.retryAfterS and nothing counted. */
  take(sessionId: string): void;
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
    take(sessionId) {
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
