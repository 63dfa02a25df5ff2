// A token bucket's arithmetic, shared by the in-process rate limiter and the one whose buckets live in the database:
// `capacity` tokens that refill continuously at `capacity` per window.

export const WINDOW_MS = 60_000;

export interface Bucket {
  tokens: number;
  /** when `tokens` was computed (ms since the epoch) */
  at: number;
}

/**
 * Refills `b` up to `now` and returns the ms until it holds one token (0: it does now). A clock that went backwards
 * (another machine's) refills nothing rather than draining the bucket.
 */
export function refill(b: Bucket, capacity: number, now: number): number {
  const rate = capacity / WINDOW_MS;
  b.tokens = Math.min(capacity, b.tokens + Math.max(0, now - b.at) * rate);
  b.at = Math.max(b.at, now);
  return b.tokens >= 1 ? 0 : (1 - b.tokens) / rate;
}
