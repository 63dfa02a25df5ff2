// Benchmark metrics (pure): answer normalisation, per-question P/R/F1 and ranking scores, macro averages, breakdowns, cost, failures.
import type { Answer, AnswerItem, Stage, TurnResult, TurnStats } from "@/lib/pipeline/types";
import { averageText2Sparql } from "./text2sparql-metrics";
import type { GoldAnswer } from "./types";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const NUMERIC_TYPES = new Set(
  [
    "integer", "decimal", "float", "double", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger",
    "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte", "gYear",
  ].map((t) => XSD + t),
);
const DATE_TYPES = new Set(["date", "dateTime", "dateTimeStamp"].map((t) => XSD + t));
const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE_TEXT = /^(-?\d{4,}-\d\d-\d\d)(T[\d:.]+(Z|[+-]\d\d:\d\d)?)?$/;

function numberKey(text: string): string | undefined {
  const t = text.trim();
  if (!NUMBER_TEXT.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? `n:${n}` : undefined;
}

/**
 * The comparison key of one answer value. IRIs stay IRIs ("<iri>"); literals lose datatype and language:
 * numbers by numeric value ("n:3" for "3", "3.0", "3"^^xsd:int), dates by their lexical date ("d:1965-08-01" for a
 * date or dateTime), booleans as "b:true"/"b:false", everything else as the trimmed string, case kept ("s:Paris").
 * Untyped literals that look like numbers or dates are compared as such (flattened gold files lose datatypes).
 */
export function itemKey(item: AnswerItem): string {
  if (item.type === "uri") return `<${item.value}>`;
  const value = item.value.trim();
  const dt = item.datatype;
  if (dt === `${XSD}boolean` && (value === "true" || value === "false" || value === "1" || value === "0")) {
    return `b:${value === "true" || value === "1"}`;
  }
  if (dt && NUMERIC_TYPES.has(dt)) return numberKey(value) ?? `s:${value}`;
  if (dt && DATE_TYPES.has(dt)) return `d:${DATE_TEXT.exec(value)?.[1] ?? value}`;
  if (!dt || dt === `${XSD}string` || dt.endsWith("#langString")) {
    const n = numberKey(value);
    if (n) return n;
    const d = DATE_TEXT.exec(value);
    if (d) return `d:${d[1]}`;
  }
  return `s:${value}`;
}

/**
 * The ordered, de-duplicated keys of an answer (system or gold); a table's are its cells row by row. "No answer" kinds
 * (none, chat, clarify) have none.
 * A count is its number, so COUNT gold matches a count answer and a single numeric item alike.
 */
export function answerKeys(answer: Answer | GoldAnswer | null | undefined): string[] {
  if (!answer) return [];
  switch (answer.kind) {
    case "items":
      return [...new Set(answer.items.map(itemKey))];
    case "table":
      // every bound cell, row by row: a table's values are what the gold lists (as TEXT2SPARQL flattens results)
      return [...new Set(answer.rows.flatMap((r) => r.flatMap((c) => (c ? [itemKey(c)] : []))))];
    case "count":
      return [`n:${answer.count}`];
    case "boolean":
      return [`b:${answer.value}`];
    default:
      return [];
  }
}

export interface QuestionScore {
  precision: number;
  recall: number;
  f1: number;
  /** the system returned at least one value */
  answered: boolean;
  /** ranking metrics: first value correct; 1/rank of the first correct value; a correct value among the first 5 */
  p1: number;
  rr: number;
  hit5: number;
  /** text2sparql scoring, questions whose order matters: trec_eval ndcg */
  ndcg?: number;
}

/**
 * Scores one question. Conventions (docs/eval.md):
 *  - gold empty: 1 on every metric if the system returned nothing too, else 0 (the QALD rule);
 *  - system returned nothing, gold not empty: 0 on every metric and `answered: false`
 *    (unlike QALD's evaluation script, which sets precision to 1 in this case);
 *  - otherwise set precision/recall/F1 over the keys of answerKeys(), and the ranking metrics over the system's order.
 */
export function scoreQuestion(answer: Answer | null | undefined, gold: GoldAnswer): QuestionScore {
  const got = answerKeys(answer);
  const want = new Set(answerKeys(gold));
  const answered = got.length > 0;
  if (want.size === 0) {
    const v = answered ? 0 : 1;
    return { precision: v, recall: v, f1: v, answered, p1: v, rr: v, hit5: v };
  }
  if (!answered) return { precision: 0, recall: 0, f1: 0, answered, p1: 0, rr: 0, hit5: 0 };
  const correct = got.filter((k) => want.has(k)).length;
  const precision = correct / got.length;
  const recall = correct / want.size;
  const f1 = correct === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  const firstRank = got.findIndex((k) => want.has(k));
  return {
    precision,
    recall,
    f1,
    answered,
    p1: firstRank === 0 ? 1 : 0,
    rr: firstRank < 0 ? 0 : 1 / (firstRank + 1),
    hit5: firstRank >= 0 && firstRank < 5 ? 1 : 0,
  };
}

export interface MacroScores {
  /** questions averaged over */
  n: number;
  precision: number;
  recall: number;
  /** mean of per-question F1 */
  f1: number;
  /** harmonic mean of macro precision and macro recall (what QALD's script reports as F1) */
  qaldF1: number;
  p1: number;
  mrr: number;
  hit5: number;
  /** text2sparql scoring: mean ndcg of the questions that have one, and the official set_F_ndcg */
  ndcg?: number;
  f1Ndcg?: number;
}

export interface MacroSummary {
  /** over ALL questions; unanswered ones count as 0 */
  all: MacroScores;
  /** over answered questions only (the Chatty-KG dialogue scripts' way; inflates both P and R) */
  answeredOnly: MacroScores;
}

const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

function macroOf(scores: QuestionScore[]): MacroScores {
  const precision = mean(scores.map((s) => s.precision));
  const recall = mean(scores.map((s) => s.recall));
  const official = averageText2Sparql(scores);
  return {
    ...(official.ndcg !== undefined ? { ndcg: official.ndcg, f1Ndcg: official.f1Ndcg } : {}),
    n: scores.length,
    precision,
    recall,
    f1: mean(scores.map((s) => s.f1)),
    qaldF1: precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall),
    p1: mean(scores.map((s) => s.p1)),
    mrr: mean(scores.map((s) => s.rr)),
    hit5: mean(scores.map((s) => s.hit5)),
  };
}

/** How a question counts among KG-grounded scores when its answer came from the model's own knowledge: unanswered. */
export function asNoKgAnswer(score: QuestionScore): QuestionScore {
  return { precision: 0, recall: 0, f1: 0, answered: false, p1: 0, rr: 0, hit5: 0, ...(score.ndcg !== undefined ? { ndcg: 0 } : {}) };
}

export function macro(scores: QuestionScore[]): MacroSummary {
  return { all: macroOf(scores), answeredOnly: macroOf(scores.filter((s) => s.answered)) };
}

/** Context retention (paper §7): how much of the standalone quality survives when questions come as a dialogue. */
export function retention(dialogueF1: number, standaloneF1: number): number | null {
  return standaloneF1 === 0 ? null : dialogueF1 / standaloneF1;
}

/** Macro scores per group (question type, dataset feature tag, …); an item may be in several groups. */
export function breakdown<T extends { score: QuestionScore }>(records: T[], groupsOf: (r: T) => string[]): Record<string, MacroSummary> {
  const groups = new Map<string, QuestionScore[]>();
  for (const r of records) {
    for (const g of groupsOf(r)) {
      const list = groups.get(g) ?? [];
      list.push(r.score);
      groups.set(g, list);
    }
  }
  return Object.fromEntries([...groups.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([g, s]) => [g, macro(s)]));
}

/** Stage groups for the latency breakdown (paper Fig. 4). */
export const STAGE_GROUPS = {
  understanding: ["chat", "translate", "classify", "rephrase", "qir", "plan"],
  linking: ["entity-linking", "relation-linking", "explore"],
  execution: ["query-generation", "query-selection", "execution", "induction", "retrieval"],
  answer: ["answer"],
} as const satisfies Record<string, readonly Stage[]>;
export type StageGroup = keyof typeof STAGE_GROUPS;

export function stageGroupOf(stage: Stage): StageGroup {
  for (const [group, stages] of Object.entries(STAGE_GROUPS) as [StageGroup, readonly Stage[]][]) if (stages.includes(stage)) return group;
  return "answer";
}

/** Dollars (or any currency) per 1M tokens. */
export interface Prices {
  inputPerMTok: number;
  outputPerMTok: number;
}

export interface CostSummary {
  questions: number;
  totalMs: number;
  meanMs: number;
  /** mean ms per question in each stage group */
  meanStageGroupMs: Record<StageGroup, number>;
  /** mean ms per question in each stage that ran */
  meanStageMs: Partial<Record<Stage, number>>;
  llmCalls: number;
  tokensIn: number;
  tokensOut: number;
  meanLlmCalls: number;
  meanTokensIn: number;
  meanTokensOut: number;
  /** at the configured prices; null when none were given */
  cost: number | null;
  queries: number;
  meanQueries: number;
}

export function costSummary(stats: TurnStats[], prices?: Prices): CostSummary {
  const n = stats.length;
  const sum = (f: (s: TurnStats) => number) => stats.reduce((a, s) => a + f(s), 0);
  const per = (x: number) => (n === 0 ? 0 : x / n);
  const groupMs: Record<StageGroup, number> = { understanding: 0, linking: 0, execution: 0, answer: 0 };
  const stageMs: Partial<Record<Stage, number>> = {};
  for (const s of stats) {
    for (const [stage, ms] of Object.entries(s.stageMs) as [Stage, number][]) {
      groupMs[stageGroupOf(stage)] += ms;
      stageMs[stage] = (stageMs[stage] ?? 0) + ms;
    }
  }
  const tokensIn = sum((s) => s.tokensIn);
  const tokensOut = sum((s) => s.tokensOut);
  return {
    questions: n,
    totalMs: sum((s) => s.ms),
    meanMs: per(sum((s) => s.ms)),
    meanStageGroupMs: Object.fromEntries(Object.entries(groupMs).map(([g, ms]) => [g, per(ms)])) as Record<StageGroup, number>,
    meanStageMs: Object.fromEntries(Object.entries(stageMs).map(([st, ms]) => [st, per(ms)])),
    llmCalls: sum((s) => s.llmCalls),
    tokensIn,
    tokensOut,
    meanLlmCalls: per(sum((s) => s.llmCalls)),
    meanTokensIn: per(tokensIn),
    meanTokensOut: per(tokensOut),
    cost: prices ? (tokensIn / 1e6) * prices.inputPerMTok + (tokensOut / 1e6) * prices.outputPerMTok : null,
    queries: sum((s) => s.queries),
    meanQueries: per(sum((s) => s.queries)),
  };
}

export const FAILURE_REASONS = [
  "understanding", // a failure in chat/translate/classify/rephrase/qir
  "linking", // entity or relation linking found nothing usable
  "query-selection", // no candidate query, or none selected
  "execution", // queries failed (timeouts, endpoint errors)
  "empty-kg-answer", // the selected queries ran and returned nothing
  "no-kg-route", // the Chat agent answered from the conversation or asked to clarify
  "error", // the run threw (a bug, or the LLM/KG was unreachable)
  "wrong-answer", // answered, F1 = 0
  "partial-answer", // answered, 0 < F1 < 1
  "model-knowledge", // answered from the model's own knowledge, not from the KG (scored apart from the KG answers)
] as const;
export type FailureReason = (typeof FAILURE_REASONS)[number];

/** Why a question was not fully right (null when F1 = 1), from TurnResult.source and error.stage. */
export function failureReason(result: Pick<TurnResult, "source" | "error"> | null, score: QuestionScore): FailureReason | null {
  // an answer from the model's own knowledge is never a KG answer, right or not
  if (result?.source === "llm") return "model-knowledge";
  if (score.f1 >= 1) return null;
  if (!result) return "error";
  if (result.source === "failed") {
    const stage = result.error?.stage;
    if (!stage) return "error";
    if (stage === "query-generation" || stage === "query-selection") return "query-selection";
    const group = stageGroupOf(stage);
    return group === "understanding" || group === "linking" || group === "execution" ? group : "error";
  }
  if (result.source === "none") return "empty-kg-answer";
  if (result.source === "conversation") return "no-kg-route";
  return score.f1 > 0 ? "partial-answer" : "wrong-answer";
}

export function countBy<T>(xs: T[], key: (x: T) => string | null): Record<string, number> {
  const out: Record<string, number> = {};
  for (const x of xs) {
    const k = key(x);
    if (k !== null) out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}
