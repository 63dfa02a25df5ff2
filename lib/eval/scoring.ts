// The two scorings a run can use, per question: "items" (our typed set metrics, lib/eval/metrics.ts) and "text2sparql"
// (the official TEXT2SPARQL'25 scorer reproduced, lib/eval/text2sparql-metrics.ts). A run records which one it used.
import type { Answer } from "@/lib/pipeline/types";
import { scoreQuestion, type QuestionScore } from "./metrics";
import { compareKey, flatOf, ORDER_MATTERS, scoreText2Sparql, valuesOf, type ValueComparison } from "./text2sparql-metrics";
import type { GoldAnswer } from "./types";

export const SCORINGS = ["items", "text2sparql"] as const;
export type Scoring = (typeof SCORINGS)[number];

/** What each scoring is called where scores are shown (summary.md, the eval page, the CLI). */
export const SCORING_LABELS: Record<Scoring, string> = {
  items: "item metrics (typed values: numbers by value, dates by day, IRIs ≠ literals; empty gold = 1 when nothing returned)",
  text2sparql: "TEXT2SPARQL official (every value string of every variable; pytrec_eval set P/R/F1, empty gold = 0; ndcg where order matters)",
};

/** The scoring a dataset gets when --scoring is not given: the official one for TEXT2SPARQL datasets. */
export function defaultScoring(dataset: string): Scoring {
  return dataset === "ck25" || dataset === "text2sparql" ? "text2sparql" : "items";
}

export interface ScoreOptions {
  scoring: Scoring;
  /** text2sparql: how value strings compare (default exact, as the official scorer) */
  comparison?: ValueComparison;
  /** the item's feature tags (RESULT_ORDER_MATTERS adds ndcg under text2sparql) */
  features?: string[];
}

/**
 * Scores one answer. Under text2sparql, P/R/F1 (and ndcg) are the official ones; `answered` = the system returned a
 * value, and the ranking scores (P@1, RR, Hit@5) look at the values in the system's order as under items.
 */
export function scoreAnswer(answer: Answer | null | undefined, gold: GoldAnswer, options: ScoreOptions): QuestionScore {
  if (options.scoring === "items") return scoreQuestion(answer, gold);
  const comparison = options.comparison ?? "exact";
  const run = flatOf(answer);
  const qrels = flatOf(gold);
  const official = scoreText2Sparql(run, qrels, { orderMatters: options.features?.includes(ORDER_MATTERS), comparison });
  const relevant = new Set(Object.entries(qrels).flatMap(([k, rel]) => (rel >= 1 ? [compareKey(k, comparison)] : [])));
  const ranked = answer?.kind === "boolean" ? ["true"] : valuesOf(answer).map((v) => compareKey(v, comparison));
  const first = ranked.findIndex((k) => relevant.has(k));
  return {
    ...official,
    answered: Object.keys(run).length > 0,
    p1: first === 0 ? 1 : 0,
    rr: first < 0 ? 0 : 1 / (first + 1),
    hit5: first >= 0 && first < 5 ? 1 : 0,
  };
}
