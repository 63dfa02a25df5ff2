// The TEXT2SPARQL'25 official scoring, reproduced (pure): result sets flattened to value strings, pytrec_eval's
// set_P / set_recall / set_F per question, trec_eval's ndcg for RESULT_ORDER_MATTERS, and the official averages.
// Facts from the official client (AKSW/text2sparql-client) and trec_eval; docs/eval.md lists them with examples.
import type { Answer } from "@/lib/pipeline/types";
import type { FlatResult } from "./gold";
import type { GoldAnswer } from "./types";

/** How flattened values are compared: the official exact value strings, or numbers by numeric value ("3" = "3.0"). */
export const VALUE_COMPARISONS = ["exact", "numeric"] as const;
export type ValueComparison = (typeof VALUE_COMPARISONS)[number];

/** The feature tag that makes the official scorer also compute ndcg for a question. */
export const ORDER_MATTERS = "RESULT_ORDER_MATTERS";

/**
 * An answer (or gold) as the official scorer sees a result: every value string of every cell, with score 1
 * (IRIs and literals with the same text are one key; datatype and language are dropped); ASK → {"true": 1|0};
 * a count is its number as text; no answer → {}.
 */
export function flatOf(answer: Answer | GoldAnswer | null | undefined): FlatResult {
  if (answer?.kind === "boolean") return { true: answer.value ? 1 : 0 };
  return Object.fromEntries(valuesOf(answer).map((v) => [v, 1]));
}

/** The value strings of a SELECT-like answer in the system's order (rows, then columns), without repeats. */
export function valuesOf(answer: Answer | GoldAnswer | null | undefined): string[] {
  if (!answer) return [];
  switch (answer.kind) {
    case "count":
      return [String(answer.count)];
    case "items":
      return [...new Set(answer.items.map((i) => i.value))];
    case "table":
      return [...new Set(answer.rows.flatMap((r) => r.flatMap((c) => (c ? [c.value] : []))))];
    default:
      return [];
  }
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The key a value compares by: itself, or (numeric) the shortest text of its number. */
export function compareKey(value: string, comparison: ValueComparison): string {
  if (comparison === "exact" || !NUMBER.test(value.trim())) return value;
  const n = Number(value.trim());
  return Number.isFinite(n) ? String(n) : value;
}

/** Re-keys a flat result for the comparison; when two values collide the larger score/relevance is kept. */
function rekey(flat: FlatResult, comparison: ValueComparison): Map<string, number> {
  const out = new Map<string, number>();
  for (const [k, v] of Object.entries(flat)) {
    const key = compareKey(k, comparison);
    out.set(key, Math.max(out.get(key) ?? -Infinity, v));
  }
  return out;
}

export interface Text2SparqlScore {
  precision: number;
  recall: number;
  f1: number;
  /** only for questions whose order matters (RESULT_ORDER_MATTERS) */
  ndcg?: number;
}

const utf8 = new TextEncoder();

/** strcmp on the UTF-8 bytes (JS string order is UTF-16 code units, which differs above U+FFFF and around surrogates). */
function compareBytes(a: string, b: string): number {
  const x = utf8.encode(a);
  const y = utf8.encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** trec_eval's tie order: score descending, then docno descending byte-wise (strcmp's arguments swapped). */
function trecOrder(run: Map<string, number>): string[] {
  return [...run.entries()].sort(([da, sa], [db, sb]) => sb - sa || compareBytes(db, da)).map(([doc]) => doc);
}

/**
 * trec_eval ndcg (no cutoff): gain = the gold relevance of each retrieved value in trec_eval's order, discount
 * log2(rank + 1); ideal = the gold relevances sorted descending. All run scores are 1, so the order is the tie order.
 */
function ndcg(run: Map<string, number>, qrels: Map<string, number>): number {
  const discount = (rank: number) => Math.log2(rank + 1);
  const dcg = trecOrder(run).reduce((sum, doc, i) => sum + Math.max(0, qrels.get(doc) ?? 0) / discount(i + 1), 0);
  const ideal = [...qrels.values()].filter((g) => g > 0).sort((a, b) => b - a);
  const idcg = ideal.reduce((sum, g, i) => sum + g / discount(i + 1), 0);
  return idcg > 0 ? dcg / idcg : 0;
}

/**
 * One question as pytrec_eval scores it: a value is relevant when its gold relevance is ≥ 1 (an ASK gold
 * {"true": 0} has none); every run value counts as retrieved, whatever its score (an ASK answer {"true": 0} retrieves
 * "true"). No relevant value (empty gold, ASK false) → 0 on every measure, for every system.
 */
export function scoreText2Sparql(run: FlatResult, gold: FlatResult, options: { orderMatters?: boolean; comparison?: ValueComparison } = {}): Text2SparqlScore {
  const comparison = options.comparison ?? "exact";
  const r = rekey(run, comparison);
  const q = rekey(gold, comparison);
  const relevant = [...q.entries()].filter(([, rel]) => rel >= 1).map(([doc]) => doc);
  const withNdcg = (s: Omit<Text2SparqlScore, "ndcg">): Text2SparqlScore => (options.orderMatters ? { ...s, ndcg: relevant.length ? ndcg(r, q) : 0 } : s);
  if (relevant.length === 0) return withNdcg({ precision: 0, recall: 0, f1: 0 });
  const relRet = relevant.filter((doc) => r.has(doc)).length;
  const precision = r.size ? relRet / r.size : 0;
  const recall = relRet / relevant.length;
  const f1 = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return withNdcg({ precision, recall, f1 });
}

export interface Text2SparqlAverage {
  n: number;
  precision: number;
  recall: number;
  f1: number;
  /** mean ndcg over the questions that have one (absent when none has) */
  ndcg?: number;
  /**
   * the official "set_F_ndcg": per question ndcg where present, else set_F, averaged together with the mean ndcg as
   * one more term (the official client averages over its result dict, which already holds the "average" entry)
   */
  f1Ndcg?: number;
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** The official averages over all questions given (pytrec_eval's aggregate of set measures is the plain mean). */
export function averageText2Sparql(scores: Text2SparqlScore[]): Text2SparqlAverage {
  const base = { n: scores.length, precision: mean(scores.map((s) => s.precision)), recall: mean(scores.map((s) => s.recall)), f1: mean(scores.map((s) => s.f1)) };
  const ndcgs = scores.flatMap((s) => (s.ndcg === undefined ? [] : [s.ndcg]));
  if (ndcgs.length === 0) return base;
  const meanNdcg = mean(ndcgs);
  const combined = [...scores.map((s) => s.ndcg ?? s.f1), meanNdcg];
  return { ...base, ndcg: meanNdcg, f1Ndcg: mean(combined) };
}
