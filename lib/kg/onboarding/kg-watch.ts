// Tells a KG that stopped answering from a KG that is only slow, for the onboarding job. One slow query is no dead KG
// (a big store times out on a heavy profile query and answers the next one), so a timeout alone never stops the job:
//  1. the job starts with a one-row query; no answer within the query timeout → the KG is not answering;
//  2. a query that times out while no other query answered since it was sent is followed by that one-row query
//     (one at a time, shared by the queries that time out together); no answer → the KG is not answering.
// Then `onDead` gets the reason (the runner aborts the job and ends it as failed with that reason). A KG that answers
// the one-row query but none of the profile's is stopped by the profile itself (its data shape cannot be read).
import { AppError, toAppError, type ErrorCode } from "@/lib/errors";
import type { QueryResult } from "@/lib/kg/types";
import type { OnboardingContext } from "./context";

/** The one-row query: any store answers it at once from its first triple. */
export const ALIVE_QUERY = "SELECT ?s WHERE { ?s ?p ?o } LIMIT 1";

export interface KgWatchOptions {
  /** runs ALIVE_QUERY on the KG with the job's per-query timeout */
  probe(): Promise<unknown>;
  /** the probe's timeout, for the sentence */
  probeTimeoutMs: number;
  /** a remote KG's probe is also cut on the wall clock (timeout + grace), so an endpoint that ignores its own
   * timeout cannot hold the job; an embedded KG's probe may wait in its queue behind a reload, so it is not */
  wallClock: boolean;
  signal: AbortSignal;
  onDead(reason: AppError): void;
}

export interface KgWatch {
  /** the context with its queries watched (the same caches: only `sparql` is wrapped) */
  watch(octx: OnboardingContext): OnboardingContext;
  /** rule 1: throws the reason (and calls onDead) when the KG does not answer the one-row query */
  check(): Promise<void>;
  /** the reason the KG was found not answering, once it was */
  dead(): AppError | undefined;
}

const GRACE_MS = 5_000;

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;

/** Settles with `p`, or rejects as cancelled when `signal` aborts first (a KG that ignores the signal cannot hold a cancel). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal, cut?: number): Promise<T> {
  p.catch(() => {}); // when the race is lost (or never run) `p` still settles: not an unhandled rejection
  if (signal.aborted) return Promise.reject(new AppError("aborted", "The preparation was cancelled."));
  let onAbort = () => {};
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = new Promise<never>((_, reject) => {
    onAbort = () => reject(new AppError("aborted", "The preparation was cancelled."));
    signal.addEventListener("abort", onAbort, { once: true });
    if (cut !== undefined) timer = setTimeout(() => reject(new AppError("kg_timeout", `No answer within ${seconds(cut)}.`)), cut);
  });
  stop.catch(() => {}); // settles after the race when `p` answered first: not an unhandled rejection
  return Promise.race([p, stop]).finally(() => {
    signal.removeEventListener("abort", onAbort);
    clearTimeout(timer);
  });
}

export function createKgWatch(options: KgWatchOptions): KgWatch {
  const { signal } = options;
  let answers = 0;
  let reason: AppError | undefined;
  let probing: Promise<void> | undefined;

  const declare = (message: string, code: ErrorCode = "kg_timeout") => {
    if (reason) return;
    reason = new AppError(code, message);
    options.onDead(reason);
  };

  /** Runs the one-row query; declares the KG dead when it fails (other than by a cancel). */
  const probe = (afterTimeout: boolean) =>
    (probing ??= (async () => {
      try {
        await untilAborted(Promise.resolve().then(options.probe), signal, options.wallClock ? options.probeTimeoutMs + GRACE_MS : undefined);
        answers++;
      } catch (e) {
        const err = toAppError(e);
        if (err.code === "aborted" || signal.aborted) return;
        const then = afterTimeout ? "a query took longer than its time limit, and then " : "";
        if (err.code === "kg_timeout") declare(`${then}a one-row query got no answer within ${seconds(options.probeTimeoutMs)}${afterTimeout ? " either" : ""}.`);
        else declare(`${then}a one-row query failed: ${err.message}`, err.code.startsWith("kg_") ? err.code : "kg_unavailable");
      } finally {
        probing = undefined;
      }
    })());

  return {
    dead: () => reason,

    async check() {
      await probe(false);
      if (reason) throw reason;
    },

    watch(octx) {
      const inner = octx.ctx;
      const sparql = async (...args: Parameters<typeof inner.sparql>): Promise<QueryResult> => {
        const seen = answers;
        try {
          const r = await untilAborted(inner.sparql(...args), signal);
          answers++;
          return r;
        } catch (e) {
          const err = toAppError(e);
          // answered meanwhile: the KG is alive, this query was only slow
          if (err.code === "kg_timeout" && !signal.aborted && !reason && answers === seen) await probe(true);
          throw err;
        }
      };
      return { ...octx, ctx: { ...inner, sparql } };
    },
  };
}
