// Runs a strategy over benchmark items (single questions, or dialogues turn by turn), scores each answer, checkpoints
// every finished question to JSONL (so an interrupted run resumes), and writes result.json + summary.md.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { toAppError } from "@/lib/errors";
import type { KgProfile, KnowledgeGraph } from "@/lib/kg/types";
import type { Similarity } from "@/lib/embeddings/types";
import type { LlmGateway } from "@/lib/llm/types";
import type { DerivationEvent, DialogueTurn, ExperienceSource, KgNotesSource, PipelineConfig, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { computeGold } from "./gold";
import { failureReason, type Prices } from "./metrics";
import { scoreAnswer, type Scoring } from "./scoring";
import type { ValueComparison } from "./text2sparql-metrics";
import { compareWithOfficial, type OfficialEval } from "./official-eval";
import { renderMarkdown } from "./report";
import {
  questionRecordSchema,
  RESULT_VERSION,
  runResultSchema,
  type KgProfileFlags,
  type QuestionRecord,
  type RunExperience,
  type RunKgProfile,
  type RunLoad,
  type RunMode,
  type RunResult,
} from "./result-schema";
import { summarizeRun } from "./summarize";
import { inferType, type BenchmarkItem, type GoldAnswer } from "./types";

/**
 * A strategy as the runner drives it: the benchmark item comes along in the input (a query replay looks its SPARQL up
 * by the item's id; the app's strategies ignore it), and the id/label need not be a registered strategy's.
 */
export interface EvalStrategy {
  id: string;
  label: string;
  run(input: StrategyInput & { item: BenchmarkItem }, deps: StrategyDeps): AsyncGenerator<DerivationEvent, TurnResult, void>;
}

export interface RunnerDeps {
  strategy: EvalStrategy | Strategy;
  kg: KnowledgeGraph;
  llm: LlmGateway;
  similarity: Similarity;
  /** a fresh LLM per question instead of `llm` (the oracle answers from each item's gold); failures count as that question's error */
  llmFor?: (item: BenchmarkItem, signal?: AbortSignal) => Promise<LlmGateway>;
  /** where the gold SPARQL runs (default `kg`): a reference store when the KG under test deviates from the SPARQL spec */
  goldKg?: KnowledgeGraph;
  /** the experience pool a question may see (lib/eval/experience-guard.ts leaves the question itself out) */
  experienceFor?: (item: BenchmarkItem) => ExperienceSource;
  /** the KG's notes (an onboarding's), given to every question */
  kgNotes?: KgNotesSource;
  /** injectable clock for tests */
  now?: () => number;
}

export interface Progress {
  done: number;
  total: number;
  /** finished in this process (resumed ones excluded), for the ETA */
  ranNow: number;
  elapsedMs: number;
  last?: { key: string; f1: number | null; failure: string | null };
}

export interface RunOptions {
  items: BenchmarkItem[];
  /** "dialogue" runs items grouped by dialogueId turn by turn with the conversation; "standalone" runs their rewrites alone */
  modes: RunMode[];
  config: PipelineConfig;
  outDir: string;
  runId: string;
  concurrency?: number;
  /** skip questions already in the checkpoint */
  resume?: boolean;
  /** auto: the dataset's answers, else the gold SPARQL on the KG; kg: always recompute */
  goldSource?: "auto" | "dataset" | "kg";
  /** how answers are scored (default items); recorded in the result */
  scoring?: Scoring;
  /** text2sparql scoring: how value strings compare (default exact) */
  valueComparison?: ValueComparison;
  /** a published evaluation of the same system: the result records the per-question agreement with it */
  official?: OfficialEval;
  prices?: Prices | null;
  /** what to record about the run */
  meta: {
    dataset: string;
    file: string;
    kg: string;
    limit: number | null;
    llm: { provider: string; model: string };
    /** the CLI's KG-profile flags as given; recorded with the KG's effective profile */
    kgProfileFlags?: KgProfileFlags;
    /** what --gold-kg named, when the gold ran on another KG */
    goldKg?: string;
    /** a replay of a queries file instead of a strategy */
    queries?: { file: string; count: number };
    /** what loading the dataset did (skipped records, declared gold prefixes, question language) */
    load?: RunLoad;
    /** the experience pools the strategies were shown */
    experience?: RunExperience;
  };
  signal?: AbortSignal;
  onProgress?: (p: Progress) => void;
}

export interface RunOutput {
  result: RunResult;
  resultFile: string;
  summaryFile: string;
  checkpointFile: string;
  /** questions taken from the checkpoint instead of being run */
  resumed: number;
}

/** A unit of work: one question, or one dialogue whose turns must run in order. */
interface Unit {
  mode: RunMode;
  items: BenchmarkItem[];
}

export const keyOf = (mode: RunMode, id: string) => `${mode}:${id}`;

function unitsFor(items: BenchmarkItem[], mode: RunMode): Unit[] {
  if (mode !== "dialogue") return items.map((item) => ({ mode, items: [item] }));
  const byDialogue = new Map<string, BenchmarkItem[]>();
  for (const item of items) {
    const d = item.dialogueId ?? `#${item.id}`; // a question without a dialogue is a one-turn conversation
    byDialogue.set(d, [...(byDialogue.get(d) ?? []), item]);
  }
  return [...byDialogue.values()].map((turns) => ({ mode, items: turns.sort((a, b) => (a.turn ?? 0) - (b.turn ?? 0)) }));
}

export function readCheckpoint(file: string): QuestionRecord[] {
  if (!existsSync(file)) return [];
  const out: QuestionRecord[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (!line.trim()) continue;
    // why: a line cut off by a crash is dropped and that question simply runs again
    try {
      const r = questionRecordSchema.safeParse(JSON.parse(line));
      if (r.success) out.push(r.data);
    } catch {
      /* partial line */
    }
  }
  return out;
}

/** Runs the turn to its result, keeping the first row-limit warning (the answer may be cut) and every KG-budget cut. */
async function drain(gen: AsyncGenerator<DerivationEvent, TurnResult, void>): Promise<{ result: TurnResult; rowLimit?: string; kgCuts: string[] }> {
  let rowLimit: string | undefined;
  const kgCuts: string[] = [];
  let next = await gen.next();
  while (!next.done) {
    if (next.value.type === "warning" && next.value.code === "row-limit") rowLimit ??= next.value.message;
    if (next.value.type === "warning" && next.value.code === "budget") kgCuts.push(`${next.value.stage}: ${next.value.message}`);
    next = await gen.next();
  }
  return { result: next.value, rowLimit, kgCuts };
}

export async function runBenchmark(options: RunOptions, deps: RunnerDeps): Promise<RunOutput> {
  const now = deps.now ?? Date.now;
  mkdirSync(options.outDir, { recursive: true });
  const checkpointFile = path.join(options.outDir, "checkpoint.jsonl");
  const metaFile = path.join(options.outDir, "run-meta.json");
  const previous = options.resume ? readCheckpoint(checkpointFile) : [];
  if (!options.resume) writeFileSync(checkpointFile, "");
  const meta = options.resume && existsSync(metaFile) ? (JSON.parse(readFileSync(metaFile, "utf8")) as { runId: string; startedAt: string }) : null;
  const runId = meta?.runId ?? options.runId;
  const startedAt = meta?.startedAt ?? new Date(now()).toISOString();
  writeFileSync(metaFile, JSON.stringify({ runId, startedAt }));

  const done = new Map(previous.map((r) => [r.key, r]));
  const units = options.modes.flatMap((m) => unitsFor(options.items, m));
  const total = units.reduce((n, u) => n + u.items.length, 0);
  const wanted = new Set(units.flatMap((u) => u.items.map((i) => keyOf(u.mode, i.id))));
  const records: QuestionRecord[] = previous.filter((r) => wanted.has(r.key));
  const resumed = records.length;
  const started = now();
  let ranNow = 0;
  const report = (last?: Progress["last"]) =>
    options.onProgress?.({ done: records.length, total, ranNow, elapsedMs: now() - started, last });
  report();

  const scoring = options.scoring ?? "items";
  const goldCache = new Map<string, Promise<{ gold: GoldAnswer | null; error?: string }>>();
  const goldFor = (item: BenchmarkItem) => {
    let g = goldCache.get(item.id);
    if (!g) {
      g = resolveGold(item, options.goldSource ?? "auto", deps.goldKg ?? deps.kg, options.config.queryTimeoutMs);
      goldCache.set(item.id, g);
    }
    return g;
  };

  const runUnit = async (unit: Unit) => {
    const dialogue: DialogueTurn[] = [];
    for (const item of unit.items) {
      if (options.signal?.aborted) return;
      const key = keyOf(unit.mode, item.id);
      const prior = done.get(key);
      if (prior) {
        // resumed: the conversation goes on with the answer given last time
        dialogue.push({ question: prior.question, answer: prior.answer });
        continue;
      }
      const question = unit.mode === "standalone" ? (item.standalone ?? item.question) : item.question;
      const config: PipelineConfig = { ...options.config, mode: unit.mode === "dialogue" ? "multi" : "single" };
      let result: TurnResult | null = null;
      let rowLimit: string | undefined;
      let kgCuts: string[] = [];
      let thrown: { code: string; message: string } | undefined;
      let oracleLog: QuestionRecord["oracle"];
      const t0 = now();
      try {
        const llm = deps.llmFor ? await deps.llmFor(item, options.signal) : deps.llm;
        // an oracle's gateway carries its log of the question (what it grounded, dropped, normalised)
        oracleLog = (llm as { oracleLog?: QuestionRecord["oracle"] }).oracleLog;
        ({ result, rowLimit, kgCuts } = await drain(
          deps.strategy.run({ question, dialogue: unit.mode === "dialogue" ? [...dialogue] : [], config, signal: options.signal, item }, { ...deps, llm, ...(deps.experienceFor ? { experience: deps.experienceFor(item) } : {}) }),
        ));
      } catch (e) {
        const err = toAppError(e);
        if (err.code === "aborted" && options.signal?.aborted) return; // interrupted: not recorded, runs again on resume
        thrown = { code: err.code, message: err.message };
      }
      // why: a turn cut short by Ctrl-C is not an answer; it is left out of the checkpoint so --resume runs it again
      if (options.signal?.aborted) return;
      const { gold, error: goldError } = await goldFor(item);
      const score = gold ? scoreAnswer(result?.answer, gold, { scoring, comparison: options.valueComparison, features: item.features }) : null;
      const record: QuestionRecord = {
        key,
        id: item.id,
        mode: unit.mode,
        ...(item.dialogueId !== undefined ? { dialogueId: item.dialogueId } : {}),
        ...(item.turn !== undefined ? { turn: item.turn } : {}),
        question,
        ...(item.lang ? { lang: item.lang } : {}),
        ...(result?.standaloneQuestion ? { understoodAs: result.standaloneQuestion } : {}),
        type: inferType({ ...item, goldAnswers: item.goldAnswers ?? gold ?? undefined }),
        features: item.features ?? [],
        ...(item.goldSparql ? { goldSparql: item.goldSparql } : {}),
        gold,
        ...(goldError ? { goldError } : {}),
        answer: result?.answer ?? null,
        source: result?.source ?? "failed",
        sparql: result?.sparql ?? [],
        metrics: score,
        failure: score ? failureReason(result, score) : null,
        trace: {
          ...(result?.stats ?? { ms: now() - t0, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 0, stageMs: {} }),
          ...(result?.error ? { error: result.error } : thrown ? { error: thrown } : {}),
        },
        ...(rowLimit ? { rowLimit } : {}),
        ...(kgCuts.length ? { kgCuts } : {}),
        ...(oracleLog ? { oracle: oracleLog } : {}),
        finishedAt: new Date(now()).toISOString(),
      };
      appendFileSync(checkpointFile, JSON.stringify(record) + "\n");
      records.push(record);
      ranNow++;
      dialogue.push({ question, answer: result?.answer ?? null });
      report({ key, f1: score?.f1 ?? null, failure: record.failure });
    }
  };

  await pool(units, Math.max(1, options.concurrency ?? 1), runUnit, options.signal);

  // Records in dataset order, whatever order the workers finished in.
  const order = new Map(units.flatMap((u) => u.items.map((i) => keyOf(u.mode, i.id))).map((k, i) => [k, i]));
  records.sort((a, b) => (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0));
  const result = runResultSchema.parse({
    version: RESULT_VERSION,
    runId,
    startedAt,
    finishedAt: new Date(now()).toISOString(),
    complete: records.length === total,
    config: {
      dataset: options.meta.dataset,
      file: options.meta.file,
      kg: options.meta.kg,
      modes: options.modes,
      limit: options.meta.limit,
      concurrency: Math.max(1, options.concurrency ?? 1),
      goldSource: options.goldSource ?? "auto",
      prices: options.prices ?? null,
      pipeline: options.config,
      kgProfile: { flags: pickFlags(options.meta.kgProfileFlags), effective: effectiveProfile(deps.kg.profile) },
      ...(options.meta.goldKg ? { goldKg: options.meta.goldKg } : {}),
      scoring,
      ...(scoring === "text2sparql" ? { valueComparison: options.valueComparison ?? "exact" } : {}),
      ...(options.meta.queries ? { queries: options.meta.queries } : {}),
      ...(options.meta.load ? { load: options.meta.load } : {}),
      ...(options.meta.experience ? { experience: options.meta.experience } : {}),
    },
    strategy: { id: deps.strategy.id, label: deps.strategy.label },
    llm: options.meta.llm,
    kg: { id: deps.kg.info.id, name: deps.kg.info.name, kind: deps.kg.info.kind },
    summary: summarizeRun(options.modes, records, options.prices),
    questions: records,
    ...(options.official ? { comparison: compareWithOfficial(records.filter((r) => r.mode === options.modes[0]), options.official) } : {}),
  } satisfies RunResult);
  const resultFile = path.join(options.outDir, "result.json");
  const summaryFile = path.join(options.outDir, "summary.md");
  writeFileSync(resultFile, JSON.stringify(result, null, 2) + "\n");
  writeFileSync(summaryFile, renderMarkdown(result));
  return { result, resultFile, summaryFile, checkpointFile, resumed };
}

/** Only the flags that were given, so result.json says exactly what was typed. */
function pickFlags(flags: KgProfileFlags | undefined): KgProfileFlags {
  const out: KgProfileFlags = {};
  for (const key of ["profile", "label-predicates", "lang", "label-search"] as const) if (flags?.[key] !== undefined) out[key] = flags[key];
  return out;
}

/** The profile's recorded fields (a copy: the KG's object stays the KG's). */
function effectiveProfile(p: KgProfile): RunKgProfile["effective"] {
  return {
    labelPredicates: [...p.labelPredicates],
    language: p.language,
    prefixes: { ...p.prefixes },
    labelSearch: p.labelSearch,
    typePredicates: [...p.typePredicates],
    descriptionPredicates: [...p.descriptionPredicates],
    ...(p.entitySearchUrl ? { entitySearchUrl: p.entitySearchUrl } : {}),
  };
}

async function resolveGold(
  item: BenchmarkItem,
  source: "auto" | "dataset" | "kg",
  kg: KnowledgeGraph,
  timeoutMs: number,
): Promise<{ gold: GoldAnswer | null; error?: string }> {
  if (source !== "kg" && item.goldAnswers) return { gold: item.goldAnswers };
  if (source === "dataset") return { gold: null, error: "the dataset has no gold answers for this question" };
  if (!item.goldSparql) return { gold: null, error: "no gold answers and no gold SPARQL" };
  try {
    return { gold: await computeGold(kg, item.goldSparql, { timeoutMs }) };
  } catch (e) {
    return { gold: null, error: `gold query failed: ${toAppError(e).message}` };
  }
}

/** Runs `work` over `units` with at most `n` in flight; stops taking new units once `signal` aborts. */
async function pool<T>(units: T[], n: number, work: (u: T) => Promise<void>, signal?: AbortSignal): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < units.length && !signal?.aborted) await work(units[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(n, units.length) }, worker));
}
