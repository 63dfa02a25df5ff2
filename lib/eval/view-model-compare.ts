// Any number of runs side by side (pure): headline metrics with the best run marked, F1 by question type and by gold
// query shape, and F1 per question. Scores are KG-grounded: an answer from the model's own knowledge counts as none.
import { GOLD_SHAPE_TAG } from "./oracle-llm";
import { parseGold } from "./oracle-llm-gold";
import type { QuestionRecord, RunMode, RunResult } from "./result-schema";
import { groundedScore, pickMode, questionsOfMode } from "./view-model";
import { QUESTION_TYPES } from "./types";

export interface ComparedRun {
  ref: string;
  runId: string;
  /** "Triad · <model>" */
  label: string;
  strategy: string;
  llm: string;
  dataset: string;
  questions: number;
}

export interface ManyMetric {
  key: string;
  label: string;
  format: "score" | "ms" | "count";
  values: (number | null)[];
  /** indices of the runs with the best value (none when fewer than two runs have one) */
  best: number[];
}

export interface ManyRow {
  key: string;
  n: number[];
  values: (number | null)[];
  best: number[];
}

export interface ManyQuestion {
  id: string;
  question: string;
  type: string;
  shape: string | null;
  f1: (number | null)[];
  /** "not from the KG" per run: the model answered from its own knowledge */
  fromModel: boolean[];
  best: number[];
}

export interface ManyComparison {
  mode: RunMode;
  runs: ComparedRun[];
  metrics: ManyMetric[];
  byType: ManyRow[];
  byShape: ManyRow[];
  questions: ManyQuestion[];
}

const EPS = 1e-9;
const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);

function bestOf(values: (number | null)[], higherIsBetter: boolean): number[] {
  const present = values.flatMap((v, i) => (v === null ? [] : [{ v, i }]));
  if (present.length < 2) return [];
  const top = higherIsBetter ? Math.max(...present.map((p) => p.v)) : Math.min(...present.map((p) => p.v));
  const best = present.filter((p) => Math.abs(p.v - top) < EPS).map((p) => p.i);
  return best.length === present.length ? [] : best; // all equal: nobody is better
}


/** The hardest feature of the gold query ("bgp", "aggregate", …): the oracle's tag when present, else read from the gold SPARQL. */
export function goldShapeOf(r: QuestionRecord): string | null {
  const tag = r.features.find((f) => f.startsWith(GOLD_SHAPE_TAG));
  if (tag) return tag.slice(GOLD_SHAPE_TAG.length);
  if (!r.goldSparql) return null;
  try {
    return parseGold(r.goldSparql).shape;
  } catch {
    return null;
  }
}

function rowsBy(records: QuestionRecord[][], groupOf: (r: QuestionRecord) => string | null, order: (keys: string[]) => string[]): ManyRow[] {
  const keys = order([...new Set(records.flat().map(groupOf).filter((k): k is string => k !== null))]);
  return keys.map((key) => {
    const perRun = records.map((rs) => rs.filter((r) => groupOf(r) === key).flatMap((r) => (groundedScore(r) ? [groundedScore(r)!.f1] : [])));
    const values = perRun.map((xs) => mean(xs));
    return { key, n: perRun.map((xs) => xs.length), values, best: bestOf(values, true) };
  });
}

const typeOrder = (keys: string[]) => [...QUESTION_TYPES.filter((t) => keys.includes(t)), ...keys.filter((k) => !(QUESTION_TYPES as readonly string[]).includes(k)).sort()];

/** Compares `runs` (at least one) in one mode: the requested one when the first run has it, else its first mode. */
export function compareMany(runs: { ref: string; result: RunResult }[], requestedMode?: string | null): ManyComparison {
  const mode = pickMode(runs[0].result, requestedMode);
  const records = runs.map(({ result }) => questionsOfMode(result, mode));
  const summaries = runs.map(({ result }) => result.summary.modes.find((m) => m.mode === mode) ?? null);
  const metric = (key: string, label: string, format: ManyMetric["format"], higherIsBetter: boolean, f: (s: NonNullable<(typeof summaries)[number]>) => number | null): ManyMetric => {
    const values = summaries.map((s) => (s ? f(s) : null));
    return { key, label, format, values, best: bestOf(values, higherIsBetter) };
  };
  const metrics = [
    metric("f1All", "Macro F1 (all questions)", "score", true, (s) => s.macro.all.f1),
    metric("f1Answered", "Macro F1 (answered only)", "score", true, (s) => s.macro.answeredOnly.f1),
    metric("precision", "Macro precision", "score", true, (s) => s.macro.all.precision),
    metric("recall", "Macro recall", "score", true, (s) => s.macro.all.recall),
    metric("answered", "Answered from the KG", "count", true, (s) => s.answered),
    metric("modelKnowledge", "Answered from the model's knowledge (not from the KG)", "count", false, (s) => s.modelKnowledge?.questions ?? 0),
    metric("meanMs", "Mean time per question", "ms", false, (s) => s.cost.meanMs),
    metric("meanLlmCalls", "Mean LLM calls", "count", false, (s) => s.cost.meanLlmCalls),
    metric("meanTokensIn", "Mean tokens in", "count", false, (s) => s.cost.meanTokensIn),
    metric("meanQueries", "Mean SPARQL queries", "count", false, (s) => s.cost.meanQueries),
  ];
  // questions by id, in the first run's order, then the others' extras
  const ids = [...new Set(records.flat().map((r) => r.id))];
  const byId = records.map((rs) => new Map(rs.map((r) => [r.id, r])));
  const questions = ids.map((id): ManyQuestion => {
    const rs = byId.map((m) => m.get(id) ?? null);
    const any = rs.find((r) => r !== null)!;
    const f1 = rs.map((r) => (r ? (groundedScore(r)?.f1 ?? null) : null));
    return { id, question: any.question, type: any.type, shape: goldShapeOf(any), f1, fromModel: rs.map((r) => r?.source === "llm"), best: bestOf(f1, true) };
  });
  return {
    mode,
    runs: runs.map(({ ref, result }) => ({
      ref,
      runId: result.runId,
      label: `${result.strategy.label} · ${result.llm.model}`,
      strategy: result.strategy.label,
      llm: `${result.llm.provider} · ${result.llm.model}`,
      dataset: result.config.dataset,
      questions: result.questions.length,
    })),
    metrics,
    byType: rowsBy(records, (r) => r.type, typeOrder),
    byShape: rowsBy(records, goldShapeOf, (keys) => [...keys].sort()),
    questions,
  };
}
