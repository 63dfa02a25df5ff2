// A turn's KG budget: how many queries (label searches included) and how much KG time every step of one turn may use
// together. On a large endpoint a few slow queries could otherwise hold a turn for minutes; with the budget each query's
// timeout is at most what is left, and once it is spent further KG calls are refused at once (AppError kg_timeout with
// details.budget), so steps that can do with fewer candidates go on with what they have. Every cut is reported to
// `onCut`; the agent context turns it into a warning in the derivation (agent-context.ts).
import { AppError, toAppError } from "@/lib/errors";

export interface KgBudgetLimits {
  /** KG calls per turn (queries and label searches) */
  queries: number;
  /** ms of KG time per turn, summed over the calls (parallel calls each count their own time) */
  ms: number;
}

export interface KgCut {
  /** "budget": the call was refused because the turn's budget is spent; "timeout": the call ran out of its time */
  reason: "budget" | "timeout";
  message: string;
  /** the caller's tag for the call (the agent context passes the step's stage) */
  where?: string;
}

export interface KgBudget {
  readonly limits: KgBudgetLimits;
  /** what the turn has used so far */
  used(): { queries: number; ms: number };
  /**
   * Runs one KG call within the budget: refused (kg_timeout, details.budget) when it is spent, otherwise run with a
   * timeout of at most the time left; a cut is reported before the error is rethrown.
   */
  run<T>(what: string, timeoutMs: number, call: (timeoutMs: number) => Promise<T>, where?: string): Promise<T>;
}

/** True for an error that means "the KG did not answer in time", whether its own timeout or the turn's budget. */
export function isKgTimeout(e: unknown): boolean {
  return toAppError(e).code === "kg_timeout";
}

export function createKgBudget(limits: KgBudgetLimits, deps: { now: () => number; onCut: (cut: KgCut) => void }): KgBudget {
  let queries = 0;
  let ms = 0;
  const seconds = (n: number) => `${Math.round(n / 100) / 10} s`;
  return {
    limits,
    used: () => ({ queries, ms }),
    async run(what, timeoutMs, call, where) {
      const left = limits.ms - ms;
      if (queries >= limits.queries || left <= 0) {
        const spent = queries >= limits.queries ? `its ${limits.queries} KG queries` : `its ${seconds(limits.ms)} of KG time`;
        const message = `The turn has used ${spent}: ${what} was not run, so this step goes on with what it found so far.`;
        deps.onCut({ reason: "budget", message, where });
        throw new AppError("kg_timeout", message, { details: { budget: true, ...limits } });
      }
      queries++;
      const allowed = Math.max(1, Math.min(timeoutMs, left));
      const started = deps.now();
      try {
        return await call(allowed);
      } catch (e) {
        const err = toAppError(e);
        if (err.code === "kg_timeout") {
          const by = allowed < timeoutMs ? `the ${seconds(allowed)} left of the turn's KG time` : `its time limit (${seconds(allowed)})`;
          deps.onCut({ reason: "timeout", message: `${capitalized(what)} was stopped at ${by}: this step goes on with fewer candidates, or fails if it has none.`, where });
        }
        throw e;
      } finally {
        ms += deps.now() - started;
      }
    },
  };
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
