// One question through a strategy with no conversation and no database (TEXT2SPARQL, the CLI): a time budget, and the
// best query seen so far when the budget ends before the strategy does.
import { AppError, toAppError } from "@/lib/errors";
import type { DerivationEvent, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";

export interface HeadlessAsk {
  strategy: Strategy;
  input: Omit<StrategyInput, "signal">;
  deps: StrategyDeps;
  /** ms until the run is cut off and the best query so far is returned */
  budgetMs: number;
  /** the caller went away (the HTTP request was closed) */
  signal?: AbortSignal;
  onEvent?: (event: DerivationEvent) => void;
}

export interface HeadlessOutcome {
  /** the strategy's result; null when the budget ended (or the caller left) first */
  result: TurnResult | null;
  /** the final query: the answer's first query, else the best one the trace showed (see bestQueryOf) */
  query: string | null;
  /** "budget": cut off by the budget; "aborted": the caller left; "done": the strategy finished */
  ended: "done" | "budget" | "aborted";
  ms: number;
}

/**
 * Whether a query event is a candidate answer query, not a helper lookup (labels, schema, entity search): queries run
 * in the execution stage, and the explorer's own queries (its execute_sparql tool and final-query checks).
 */
export function isAnswerQuery(e: DerivationEvent): e is Extract<DerivationEvent, { type: "sparql" }> {
  if (e.type !== "sparql") return false;
  if (/label|schema/i.test(e.purpose)) return false;
  return e.stage === "execution" || (e.stage === "explore" && /^(execute_sparql|final query)/.test(e.purpose));
}

/** The best query of a trace so far: the last that returned rows, else the last that ran without error, else the last. */
export function bestQueryOf(events: DerivationEvent[]): string | null {
  const candidates = events.filter(isAnswerQuery);
  const last = <T>(xs: T[]) => xs[xs.length - 1];
  const pick = last(candidates.filter((q) => !q.error && q.rows > 0)) ?? last(candidates.filter((q) => !q.error)) ?? last(candidates);
  return pick?.query ?? null;
}

const ENDED = Symbol("ended");

/** Runs the strategy; never throws for a budget end (the outcome says so), rethrows nothing the strategy reports as data. */
export async function askHeadless(a: HeadlessAsk, now: () => number = Date.now): Promise<HeadlessOutcome> {
  if (!Number.isFinite(a.budgetMs) || a.budgetMs <= 0) throw new AppError("bad_request", `The time budget must be a positive number of ms (got ${a.budgetMs}).`);
  const started = now();
  const controller = new AbortController();
  const stopOnCaller = () => controller.abort(a.signal?.reason);
  if (a.signal?.aborted) stopOnCaller();
  a.signal?.addEventListener("abort", stopOnCaller, { once: true });
  let ended: HeadlessOutcome["ended"] = "done";
  let wake: () => void = () => {};
  const cut = new Promise<typeof ENDED>((resolve) => (wake = () => resolve(ENDED)));
  const timer = setTimeout(() => {
    ended = "budget";
    controller.abort(new AppError("aborted", "The time budget ended."));
    wake();
  }, a.budgetMs);
  controller.signal.addEventListener("abort", () => {
    if (ended === "done") ended = "aborted";
    wake();
  });

  const events: DerivationEvent[] = [];
  const run = a.strategy.run({ ...a.input, signal: controller.signal }, a.deps);
  let result: TurnResult | null = null;
  try {
    for (;;) {
      const step = await Promise.race([run.next(), cut]);
      if (step === ENDED) {
        // the strategy got the abort too; its wind-down is not waited for
        void run.return(undefined as never).catch(() => {});
        break;
      }
      if (step.done) {
        result = step.value;
        break;
      }
      events.push(step.value);
      a.onEvent?.(step.value);
    }
  } catch (e) {
    // a strategy that throws once aborted: the budget's end, not a failure
    if (ended === "done") throw toAppError(e, "pipeline_failed");
  } finally {
    clearTimeout(timer);
    a.signal?.removeEventListener("abort", stopOnCaller);
  }
  if (result && ended !== "done") result = null;
  const query = result?.sparql[0] ?? bestQueryOf(events);
  return { result, query, ended, ms: now() - started };
}
