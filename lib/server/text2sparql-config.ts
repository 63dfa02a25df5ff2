// The TEXT2SPARQL API's settings, as pure functions of env: which KG answers which dataset IRI, which strategy runs,
// the time budget, and the default strategy read from the latest evaluation runs.
import { AppError } from "@/lib/errors";
import { parseKgArg, type KgSpec } from "@/lib/kg/open-kg";
import { STRATEGY_IDS, type StrategyId } from "@/lib/pipeline/types";
import type { EvalRunStore } from "./eval-runs";

type Env = Record<string, string | undefined>;

export const DATASETS_VAR = "TEXT2SPARQL_DATASETS";
export const STRATEGY_VAR = "TEXT2SPARQL_STRATEGY";
export const BUDGET_VAR = "TEXT2SPARQL_BUDGET_MS";
export const TOKEN_VAR = "TEXT2SPARQL_TOKEN";
/** The 2026 client ran with a 180 s timeout per question: 170 s leaves time to send the answer. */
export const DEFAULT_BUDGET_MS = 170_000;
/** Without an evaluation run to go by: the project's own pipeline. */
export const FIXED_DEFAULT_STRATEGY: StrategyId = "chatty-kg";
/** Strategies whose result is not a SPARQL query of the KG (model knowledge; SQL over an induced database). */
export const NO_SPARQL_STRATEGIES: ReadonlySet<string> = new Set(["llm-only", "ragonite"]);

/** One dataset the API answers: "sample" (the installation's default KG, KG_DEFAULT), RDF file(s) or an endpoint. */
export interface DatasetTarget {
  iri: string;
  /** the value as configured (file paths and endpoint URLs are the operator's, never shown to clients) */
  value: string;
  spec: KgSpec;
}

const ENTRY_START = /^\s*https?:\/\/[^\s=,]+=/i;

/**
 * TEXT2SPARQL_DATASETS=<dataset IRI>=<sample | file[,file…] | endpoint URL>,… A comma starts a new entry only when an
 * IRI and "=" follow it; otherwise it continues the previous entry's file list (so a KG may have several files).
 */
export function parseDatasets(raw: string | undefined): DatasetTarget[] {
  const text = raw?.trim();
  if (!text) return [];
  const entries: string[] = [];
  for (const part of text.split(",")) {
    if (ENTRY_START.test(part) || entries.length === 0) entries.push(part.trim());
    else entries[entries.length - 1] += `,${part.trim()}`;
  }
  const seen = new Set<string>();
  return entries.map((entry) => {
    const at = entry.indexOf("="); // dataset IRIs hold no "=", an endpoint URL after it may
    const iri = entry.slice(0, at).trim();
    const value = entry.slice(at + 1).trim();
    if (at <= 0 || !/^https?:\/\/\S+$/i.test(iri) || !value) {
      throw new AppError("bad_request", `${DATASETS_VAR}: "${entry.slice(0, 120)}" is not <dataset IRI>=<sample | file path(s) | endpoint URL>.`);
    }
    if (seen.has(iri)) throw new AppError("bad_request", `${DATASETS_VAR}: the dataset ${iri} is mapped twice.`);
    seen.add(iri);
    try {
      return { iri, value, spec: parseKgArg(value) };
    } catch (e) {
      throw new AppError("bad_request", `${DATASETS_VAR}, dataset ${iri}: ${(e as Error).message}`);
    }
  });
}

/** The dataset an IRI names, tolerating a missing or extra trailing slash (clients differ); null when unknown. */
export function findDataset(datasets: DatasetTarget[], iri: string): DatasetTarget | null {
  const bare = (s: string) => s.trim().replace(/\/+$/, "");
  return datasets.find((d) => d.iri === iri) ?? datasets.find((d) => bare(d.iri) === bare(iri)) ?? null;
}

export function budgetFromEnv(env: Env = process.env): number {
  const raw = env[BUDGET_VAR]?.trim();
  if (!raw) return DEFAULT_BUDGET_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 100) throw new AppError("bad_request", `${BUDGET_VAR} must be a whole number of ms, at least 100 (got "${raw}").`);
  return n;
}

/** One run of the evaluation page, as far as choosing a strategy needs it. */
export interface RunForChoice {
  strategyId: string;
  dataset: string;
  startedAt: string;
  complete: boolean;
  /** macro F1 over all questions of the run's first mode */
  f1All: number;
}

export interface StrategyChoice {
  strategy: StrategyId;
  /** why this one: "TEXT2SPARQL_STRATEGY", the run it won, or the fixed default */
  reason: string;
}

const isStrategyId = (s: string): s is StrategyId => (STRATEGY_IDS as readonly string[]).includes(s);

/**
 * The eval page's latest comparison: the dataset of the newest complete run, and among that dataset's runs the newest of
 * each SPARQL-writing strategy; the highest macro F1 (all questions) wins. No such run: the fixed default.
 */
export function bestStrategyFromRuns(runs: RunForChoice[]): StrategyChoice | null {
  const usable = runs.filter((r) => r.complete && isStrategyId(r.strategyId) && !NO_SPARQL_STRATEGIES.has(r.strategyId));
  if (usable.length === 0) return null;
  const newest = [...usable].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  const dataset = newest[0].dataset;
  const latest = new Map<string, RunForChoice>();
  for (const r of newest) if (r.dataset === dataset && !latest.has(r.strategyId)) latest.set(r.strategyId, r);
  const best = [...latest.values()].sort((a, b) => b.f1All - a.f1All || a.strategyId.localeCompare(b.strategyId))[0];
  return {
    strategy: best.strategyId as StrategyId,
    reason: `best macro F1 (${(best.f1All * 100).toFixed(1)} %) among the latest runs on ${dataset}`,
  };
}

/** The installation's evaluation runs (the eval page's CLI runs) as the strategy choice reads them. */
export function runsForChoice(store: EvalRunStore): RunForChoice[] {
  return store.list(null).flatMap((e) => {
    if (e.status !== "ok" || e.owner !== "installation" || e.modes.length === 0) return [];
    const result = store.load(null, e.ref).result;
    if (!result) return [];
    return [{ strategyId: result.strategy.id, dataset: e.dataset, startedAt: e.startedAt, complete: e.complete, f1All: e.modes[0].f1All }];
  });
}

export function chooseStrategy(env: Env, runs: () => RunForChoice[]): StrategyChoice {
  const set = env[STRATEGY_VAR]?.trim();
  if (set) {
    if (!isStrategyId(set)) throw new AppError("bad_request", `${STRATEGY_VAR}="${set}" is not a strategy. Known: ${STRATEGY_IDS.join(", ")}.`);
    if (NO_SPARQL_STRATEGIES.has(set)) throw new AppError("bad_request", `${STRATEGY_VAR}="${set}" writes no SPARQL query; TEXT2SPARQL needs one.`);
    return { strategy: set, reason: STRATEGY_VAR };
  }
  return bestStrategyFromRuns(runs()) ?? { strategy: FIXED_DEFAULT_STRATEGY, reason: "the fixed default (no complete evaluation run)" };
}
