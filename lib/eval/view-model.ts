// What the evaluation pages show, shaped from a run result (pure): question rows, per-type F1, stage latency per
// type, count histograms, and the comparison of two runs.
import type { Answer, AnswerItem } from "@/lib/pipeline/types";
import { NOT_FROM_KG } from "@/lib/pipeline/answer-format";
import { asNoKgAnswer, STAGE_GROUPS, stageGroupOf, type QuestionScore, type StageGroup } from "./metrics";
import type { QuestionRecord, RunMode, RunResult } from "./result-schema";
import { QUESTION_TYPES, type GoldAnswer } from "./types";

export const STAGE_GROUP_LABELS: Record<StageGroup, string> = {
  understanding: "Question understanding",
  linking: "Linking",
  execution: "Execution & filtering",
  answer: "Answer",
};
export const STAGE_GROUP_ORDER = Object.keys(STAGE_GROUPS) as StageGroup[];

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** The mode to show: the requested one when the run has it, else the run's first. */
export function pickMode(result: Pick<RunResult, "config" | "summary">, requested?: string | null): RunMode {
  const modes = result.summary.modes.map((m) => m.mode);
  const found = modes.find((m) => m === requested);
  return found ?? modes[0] ?? result.config.modes[0] ?? "single";
}

export function questionsOfMode(result: Pick<RunResult, "questions">, mode: RunMode): QuestionRecord[] {
  return result.questions.filter((q) => q.mode === mode);
}

/** A short text for an answer or a gold: the first few values, "+N more", a count, yes/no, or why there is none. */
export function shortAnswer(answer: Answer | GoldAnswer | null | undefined, maxItems = 3): string {
  if (!answer) return "—";
  switch (answer.kind) {
    case "items": {
      if (answer.items.length === 0) return "(empty)";
      const names = answer.items.slice(0, maxItems).map((it) => (it.type === "uri" ? (it.label ?? localName(it.value)) : it.value));
      const more = answer.items.length - maxItems;
      return more > 0 ? `${names.join(", ")} +${more} more` : names.join(", ");
    }
    case "table": {
      // compact: the row count and columns, then the first rows with cells joined by " | "
      if (answer.rows.length === 0) return `(empty table: ${answer.columns.join(", ")})`;
      const name = (it: AnswerItem | null) => (!it ? "—" : it.type === "uri" ? (it.label ?? localName(it.value)) : it.value);
      const shown = answer.rows.slice(0, Math.min(2, maxItems)).map((r) => r.map(name).join(" | "));
      const more = answer.rows.length - shown.length;
      return `[${answer.rows.length} × ${answer.columns.join(", ")}] ${shown.join("; ")}${more > 0 ? ` +${more} more rows` : ""}`;
    }
    case "count":
      return String(answer.count);
    case "boolean":
      return answer.value ? "yes" : "no";
    case "none":
      return "(no answer in the KG)";
    case "chat":
      return "(chat reply)";
    case "clarify":
      return "(asked to clarify)";
  }
}

/** The readable tail of an IRI: after the last '#' or '/', underscores as spaces. */
export function localName(iri: string): string {
  const tail = iri.slice(Math.max(iri.lastIndexOf("#"), iri.lastIndexOf("/")) + 1) || iri;
  let text = tail;
  try {
    text = decodeURIComponent(tail);
  } catch {
    // keep the raw tail when it is not valid percent-encoding
  }
  return text.replace(/_/g, " ");
}

/** One row of the per-question table. */
export interface QuestionRow {
  key: string;
  id: string;
  question: string;
  type: string;
  /** null when the question has no gold (not scored) */
  f1: number | null;
  precision: number | null;
  recall: number | null;
  answer: string;
  gold: string;
  llmCalls: number;
  queries: number;
  ms: number;
  /** "ok" when F1 = 1, "not scored" without gold, else the failure reason */
  failure: string;
  error?: string;
}

/** A question's score as the KG-grounded views count it: an answer from the model's own knowledge is no KG answer. */
export function groundedScore(r: QuestionRecord): QuestionScore | null {
  return r.metrics && r.source === "llm" ? asNoKgAnswer(r.metrics) : r.metrics;
}

export function questionRows(records: QuestionRecord[]): QuestionRow[] {
  return records.map((r) => ({
    key: r.key,
    id: r.id,
    question: r.question,
    type: r.type,
    f1: r.metrics?.f1 ?? null,
    precision: r.metrics?.precision ?? null,
    recall: r.metrics?.recall ?? null,
    answer: `${r.source === "llm" ? `(${NOT_FROM_KG}) ` : ""}${shortAnswer(r.answer)}`,
    gold: r.gold ? shortAnswer(r.gold) : `(no gold${r.goldError ? `: ${r.goldError}` : ""})`,
    llmCalls: r.trace.llmCalls,
    queries: r.trace.queries,
    ms: r.trace.ms,
    failure: r.metrics ? (r.failure ?? "ok") : "not scored",
    ...(r.trace.error ? { error: r.trace.error.message } : {}),
  }));
}

export type SortKey = "id" | "type" | "f1" | "llmCalls" | "queries" | "ms" | "failure";
export interface RowFilter {
  type?: string;
  failure?: string;
}

/** Rows matching the filter, sorted by `key` (nulls last in both directions; ties and key null keep the run's order). */
export function filterAndSort(rows: QuestionRow[], filter: RowFilter, key: SortKey | null, dir: "asc" | "desc"): QuestionRow[] {
  const kept = rows.filter((r) => (!filter.type || r.type === filter.type) && (!filter.failure || r.failure === filter.failure));
  if (key === null) return kept;
  const sign = dir === "asc" ? 1 : -1;
  return kept
    .map((r, i) => ({ r, i }))
    .sort((a, b) => {
      const x = a.r[key];
      const y = b.r[key];
      if (x === null && y === null) return a.i - b.i;
      if (x === null) return 1;
      if (y === null) return -1;
      const c = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y), undefined, { numeric: true });
      return c === 0 ? a.i - b.i : sign * c;
    })
    .map(({ r }) => r);
}

/** The distinct values of a column in first-seen order (for the filter menus). */
export function distinct(rows: QuestionRow[], key: "type" | "failure"): string[] {
  return [...new Set(rows.map((r) => r[key]))];
}

export interface TypeF1 {
  type: string;
  /** scored questions of this type */
  n: number;
  answered: number;
  /** macro F1 over all scored questions of the type (unanswered count as 0) */
  f1All: number;
  /** macro F1 over the answered ones only */
  f1Answered: number;
}

/** Macro F1 per question type (known types first in their fixed order), scored questions only. */
export function f1ByType(records: QuestionRecord[]): TypeF1[] {
  const types = orderTypes(records.map((r) => r.type));
  return types.flatMap((type) => {
    const scored = records.filter((r) => r.type === type && r.metrics).map((r) => groundedScore(r)!);
    if (scored.length === 0) return [];
    const answered = scored.filter((m) => m.answered);
    return [{ type, n: scored.length, answered: answered.length, f1All: mean(scored.map((m) => m.f1)), f1Answered: mean(answered.map((m) => m.f1)) }];
  });
}

function orderTypes(types: string[]): string[] {
  const present = new Set(types);
  const known: string[] = QUESTION_TYPES.filter((t) => present.has(t));
  return [...known, ...[...present].filter((t) => !known.includes(t)).sort()];
}

export interface TypeStages {
  type: string;
  n: number;
  /** mean ms per question of this type in each stage group */
  ms: Record<StageGroup, number>;
}

/** Mean latency per stage group for each question type (every question that ran, scored or not). */
export function stageMsByType(records: QuestionRecord[]): TypeStages[] {
  return orderTypes(records.map((r) => r.type)).map((type) => {
    const mine = records.filter((r) => r.type === type);
    const sums: Record<StageGroup, number> = { understanding: 0, linking: 0, execution: 0, answer: 0 };
    for (const r of mine) {
      for (const [stage, ms] of Object.entries(r.trace.stageMs)) sums[stageGroupOf(stage as Parameters<typeof stageGroupOf>[0])] += ms ?? 0;
    }
    const ms = Object.fromEntries(STAGE_GROUP_ORDER.map((g) => [g, mine.length ? sums[g] / mine.length : 0])) as Record<StageGroup, number>;
    return { type, n: mine.length, ms };
  });
}

export interface HistogramBin {
  label: string;
  from: number;
  /** inclusive */
  to: number;
  count: number;
}

/**
 * How many questions needed 0, 1, 2, … LLM calls (or queries): one bin per integer while that gives at most
 * `maxBins` bins, else equal-width integer ranges.
 */
export function countHistogram(values: number[], maxBins = 16): HistogramBin[] {
  if (values.length === 0) return [];
  const lo = Math.min(...values.map(Math.floor));
  const hi = Math.max(...values.map(Math.floor));
  const width = Math.max(1, Math.ceil((hi - lo + 1) / Math.max(1, maxBins)));
  const bins: HistogramBin[] = [];
  for (let from = lo; from <= hi; from += width) {
    const to = from + width - 1;
    bins.push({ label: width === 1 ? String(from) : `${from}–${to}`, from, to, count: 0 });
  }
  for (const v of values) bins[Math.floor((Math.floor(v) - lo) / width)].count++;
  return bins;
}

export interface MetricDelta {
  key: string;
  label: string;
  a: number | null;
  b: number | null;
  /** b − a, null when either is missing */
  delta: number | null;
  /** which run did better on this metric */
  better: "a" | "b" | "same" | null;
  format: "score" | "ms" | "count";
}

export interface QuestionOutcome {
  key: string;
  id: string;
  question: string;
  type: string;
  f1A: number | null;
  f1B: number | null;
  /** "win" = B scored higher than A on this question */
  outcome: "win" | "loss" | "tie" | "only-a" | "only-b" | "not-scored";
}

export interface RunComparison {
  mode: RunMode;
  metrics: MetricDelta[];
  byType: { type: string; a: number | null; b: number | null; delta: number | null }[];
  questions: QuestionOutcome[];
  tally: Record<QuestionOutcome["outcome"], number>;
}

const EPS = 1e-9;

function delta(key: string, label: string, a: number | null, b: number | null, format: MetricDelta["format"], higherIsBetter: boolean): MetricDelta {
  const d = a === null || b === null ? null : b - a;
  const better = d === null ? null : Math.abs(d) < EPS ? "same" : (d > 0) === higherIsBetter ? "b" : "a";
  return { key, label, a, b, delta: d, better, format };
}

/** Run B against run A in one mode (A's first mode by default): macro metrics, cost, per-type F1, per-question outcomes. */
export function compareRuns(a: RunResult, b: RunResult, requestedMode?: string | null): RunComparison {
  const mode = pickMode(a, requestedMode);
  const sa = a.summary.modes.find((m) => m.mode === mode) ?? null;
  const sb = b.summary.modes.find((m) => m.mode === mode) ?? null;
  const pick = (s: typeof sa, f: (x: NonNullable<typeof sa>) => number) => (s ? f(s) : null);
  const metrics: MetricDelta[] = [
    delta("f1All", "Macro F1 (all questions)", pick(sa, (s) => s.macro.all.f1), pick(sb, (s) => s.macro.all.f1), "score", true),
    delta("f1Answered", "Macro F1 (answered only)", pick(sa, (s) => s.macro.answeredOnly.f1), pick(sb, (s) => s.macro.answeredOnly.f1), "score", true),
    delta("precision", "Macro precision", pick(sa, (s) => s.macro.all.precision), pick(sb, (s) => s.macro.all.precision), "score", true),
    delta("recall", "Macro recall", pick(sa, (s) => s.macro.all.recall), pick(sb, (s) => s.macro.all.recall), "score", true),
    delta("p1", "P@1", pick(sa, (s) => s.macro.all.p1), pick(sb, (s) => s.macro.all.p1), "score", true),
    delta("answered", "Answered questions", pick(sa, (s) => s.answered), pick(sb, (s) => s.answered), "count", true),
    delta("meanMs", "Mean time per question", pick(sa, (s) => s.cost.meanMs), pick(sb, (s) => s.cost.meanMs), "ms", false),
    delta("meanLlmCalls", "Mean LLM calls", pick(sa, (s) => s.cost.meanLlmCalls), pick(sb, (s) => s.cost.meanLlmCalls), "count", false),
    delta("meanQueries", "Mean SPARQL queries", pick(sa, (s) => s.cost.meanQueries), pick(sb, (s) => s.cost.meanQueries), "count", false),
  ];

  const qa = questionsOfMode(a, mode);
  const qb = questionsOfMode(b, mode);
  const ta = new Map(f1ByType(qa).map((t) => [t.type, t.f1All]));
  const tb = new Map(f1ByType(qb).map((t) => [t.type, t.f1All]));
  const byType = orderTypes([...ta.keys(), ...tb.keys()]).map((type) => {
    const x = ta.get(type) ?? null;
    const y = tb.get(type) ?? null;
    return { type, a: x, b: y, delta: x === null || y === null ? null : y - x };
  });

  // matched by item id (keys differ only by mode, which is the same here); A's order, then B's extras
  const inB = new Map(qb.map((q) => [q.id, q]));
  const inA = new Set(qa.map((q) => q.id));
  const questions: QuestionOutcome[] = [
    ...qa.map((q) => outcomeOf(q, inB.get(q.id) ?? null)),
    ...qb.filter((q) => !inA.has(q.id)).map((q) => outcomeOf(null, q)),
  ];
  const tally = { win: 0, loss: 0, tie: 0, "only-a": 0, "only-b": 0, "not-scored": 0 };
  for (const q of questions) tally[q.outcome]++;
  return { mode, metrics, byType, questions, tally };
}

function outcomeOf(x: QuestionRecord | null, y: QuestionRecord | null): QuestionOutcome {
  const base = (x ?? y)!;
  const f1A = x ? (groundedScore(x)?.f1 ?? null) : null;
  const f1B = y ? (groundedScore(y)?.f1 ?? null) : null;
  let outcome: QuestionOutcome["outcome"];
  if (!y) outcome = "only-a";
  else if (!x) outcome = "only-b";
  else if (f1A === null || f1B === null) outcome = "not-scored";
  else outcome = Math.abs(f1B - f1A) < EPS ? "tie" : f1B > f1A ? "win" : "loss";
  return { key: base.key, id: base.id, question: base.question, type: base.type, f1A, f1B, outcome };
}

/** Scores as the tables print them: 0.714 (three decimals). */
export function formatScore(v: number | null | undefined): string {
  return v === null || v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(3);
}

export function formatMs(v: number | null | undefined): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return "—";
  return v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`;
}

/** A signed delta for the comparison ("+0.052", "−1.2 s", "+3"). */
export function formatDelta(d: number | null, format: MetricDelta["format"]): string {
  if (d === null || !Number.isFinite(d)) return "—";
  const sign = d > 0 ? "+" : d < 0 ? "−" : "±";
  const abs = Math.abs(d);
  if (format === "score") return `${sign}${abs.toFixed(3)}`;
  if (format === "ms") return `${sign}${formatMs(abs)}`;
  return `${sign}${Number.isInteger(abs) ? abs : abs.toFixed(2)}`;
}
