// One line of the runs list (pure): a valid run's headline numbers, or why a folder holds no usable run.
import { isFixtureRun } from "./fixture-run";
import type { RunMode, RunResult } from "./result-schema";
import { oracleLabelOf } from "./oracle-kind";

/** "installation": a CLI run anyone using this installation sees; "session": imported by this browser. */
export type RunOwner = "installation" | "session";

export interface RunModeHeadline {
  mode: RunMode;
  questions: number;
  scored: number;
  answered: number;
  /** macro F1 over all scored questions (unanswered count as 0) */
  f1All: number;
  /** macro F1 over answered questions only */
  f1Answered: number;
}

export type RunListEntry =
  | {
      status: "ok";
      ref: string;
      owner: RunOwner;
      runId: string;
      dataset: string;
      strategy: string;
      llm: string;
      /** oracle runs: the oracle kind's label, shown next to every score; null for a model's run */
      oracle: string | null;
      /** the solved examples the strategy was shown ("generated pool (220)"), null: none */
      pool: string | null;
      kg: string;
      startedAt: string;
      finishedAt: string;
      complete: boolean;
      /** written by hand for the tests (lib/eval/fixture-run.ts): its numbers were never measured */
      fixture: boolean;
      questions: number;
      modes: RunModeHeadline[];
    }
  | {
      /** broken: the file is not valid JSON or not a valid result; pending: no result.json (running or interrupted) */
      status: "broken" | "pending";
      ref: string;
      owner: RunOwner;
      reason: string;
      modifiedAt: string | null;
    };

export function listEntryOf(result: RunResult, ref: string, owner: RunOwner): RunListEntry {
  return {
    status: "ok",
    ref,
    owner,
    runId: result.runId,
    dataset: result.config.dataset,
    strategy: result.strategy.label,
    llm: `${result.llm.provider} · ${result.llm.model}`,
    oracle: oracleLabelOf(result.llm),
    pool: poolLabelOf(result.config.experience),
    kg: result.kg.name,
    startedAt: result.startedAt,
    finishedAt: result.finishedAt,
    complete: result.complete,
    fixture: isFixtureRun(result),
    questions: result.questions.length,
    modes: result.summary.modes.map((m) => ({
      mode: m.mode,
      questions: m.questions,
      scored: m.scored,
      answered: m.answered,
      f1All: m.macro.all.f1,
      f1Answered: m.macro.answeredOnly.f1,
    })),
  };
}

/** A short label of the experience pools a run's strategy saw (--experience, --generated-pool); null: none. */
export function poolLabelOf(e: RunResult["config"]["experience"]): string | null {
  const parts = [...(e?.imported ? [`imported pool (${e.imported.entries})`] : []), ...(e?.generated ? [`generated pool (${e.generated.examples})`] : [])];
  return parts.length ? parts.join(" + ") : null;
}

/** The page path of a run (refs may hold characters that need escaping). */
export function runHref(ref: string): string {
  return `/eval/${encodeURIComponent(ref)}`;
}

export function compareHref(a: string, b: string): string {
  return `/eval/compare?a=${encodeURIComponent(a)}&b=${encodeURIComponent(b)}`;
}
