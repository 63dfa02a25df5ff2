// The process's rate limiters: runs of a strategy (per browser session and for the server) and password tries (per
// address and for the server). On PostgreSQL they count in the database, so several processes or machines share one
// limit; on SQLite each process counts for itself (RATE_LIMIT_STORE overrides either way).
import "server-only";
import { dialectOf, driverOf, getDb } from "@/lib/db/client";
import { createRateBucketStore } from "@/lib/db/rate-buckets";
import { createRateLimiter, createSharedRateLimiter, rateLimitConfigFromEnv, rateLimitStoreFromEnv, type LimitMessage, type RateLimitConfig, type RateLimiter } from "./rate-limit";

/** Password tries per minute from one address, and for everyone: a shared password must not be guessable by brute force. */
export const SIGN_IN_TRIES_PER_ADDRESS = 10;
export const SIGN_IN_TRIES_GLOBAL = 100;

const signInMessage: LimitMessage = (scope, perMinute, retryAfterS) =>
  `Too many sign-in attempts${scope === "session" ? " from this address" : " on this server"} (at most ${perMinute} a minute). Try again in ${retryAfterS} s.`;

function createLimiter(config: RateLimitConfig, prefix: string, message?: LimitMessage): RateLimiter {
  const db = getDb();
  if (rateLimitStoreFromEnv(dialectOf(db)) === "process") return createRateLimiter(config, Date.now, message);
  return createSharedRateLimiter(config, createRateBucketStore(driverOf(db)), prefix, message);
}

// on globalThis: Next bundles routes and server actions separately, and each must count against the same limiter
const cache = globalThis as unknown as { __chattyKgRateLimiter?: RateLimiter; __chattyKgSignInLimiter?: RateLimiter; __chattyKgText2SparqlLimiter?: RateLimiter };

export const TEXT2SPARQL_LIMIT_VAR = "TEXT2SPARQL_RATE_PER_MINUTE";

const text2sparqlMessage: LimitMessage = (scope, perMinute, retryAfterS) =>
  scope === "session"
    ? `Too many TEXT2SPARQL questions from this client (one limit per token, else per address): at most ${perMinute} a minute (${TEXT2SPARQL_LIMIT_VAR}). Try again in ${retryAfterS} s.`
    : `The server is answering too many TEXT2SPARQL questions right now: at most ${perMinute} a minute for everyone (RATE_LIMIT_GLOBAL_PER_MINUTE). Try again in ${retryAfterS} s.`;

/**
 * The limiter for TEXT2SPARQL questions, keyed by the client: its token (`token:…`), else its address (`address:…`,
 * clientAddress). Per client TEXT2SPARQL_RATE_PER_MINUTE (default: RATE_LIMIT_SESSION_PER_MINUTE's value), for the
 * server RATE_LIMIT_GLOBAL_PER_MINUTE, counted apart from the chat's runs.
 */
export function getText2SparqlLimiter(env: Record<string, string | undefined> = process.env): RateLimiter {
  if (!cache.__chattyKgText2SparqlLimiter) {
    const base = rateLimitConfigFromEnv(env);
    const perClient = rateLimitConfigFromEnv({ RATE_LIMIT_SESSION_PER_MINUTE: env[TEXT2SPARQL_LIMIT_VAR] ?? String(base.sessionPerMinute) });
    cache.__chattyKgText2SparqlLimiter = createLimiter({ sessionPerMinute: perClient.sessionPerMinute, globalPerMinute: base.globalPerMinute }, "t2s", text2sparqlMessage);
  }
  return cache.__chattyKgText2SparqlLimiter;
}

/** The limiter for runs of a strategy (RATE_LIMIT_SESSION_PER_MINUTE, RATE_LIMIT_GLOBAL_PER_MINUTE), keyed by session. */
export function getRateLimiter(): RateLimiter {
  cache.__chattyKgRateLimiter ??= createLimiter(rateLimitConfigFromEnv(), "run");
  return cache.__chattyKgRateLimiter;
}

/**
 * The limiter for password tries, keyed by clientAddress. The server-wide cap is what really holds: X-Forwarded-For
 * is whatever the client sent unless a reverse proxy in front sets it.
 */
export function getSignInLimiter(): RateLimiter {
  cache.__chattyKgSignInLimiter ??= createLimiter({ sessionPerMinute: SIGN_IN_TRIES_PER_ADDRESS, globalPerMinute: SIGN_IN_TRIES_GLOBAL }, "signin", signInMessage);
  return cache.__chattyKgSignInLimiter;
}
