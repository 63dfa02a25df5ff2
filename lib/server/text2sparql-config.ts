// The TEXT2SPARQL API's settings, as pure functions of env: which KG answers which dataset IRI, which strategy runs,
// the time budget, and the default strategy (the app's rule, lib/server/default-strategy.ts, for the dataset's KG).
import { AppError } from "@/lib/errors";
import { parseKgArg, type KgSpec } from "@/lib/kg/open-kg";
import { STRATEGY_IDS, type StrategyId } from "@/lib/pipeline/types";
import { chooseDefaultStrategy, configuredDefault, kgKeyOf, type EvidenceRun } from "./default-strategy";

type Env = Record<string, string | undefined>;

export const DATASETS_VAR = "TEXT2SPARQL_DATASETS";
export const STRATEGY_VAR = "TEXT2SPARQL_STRATEGY";
export const BUDGET_VAR = "TEXT2SPARQL_BUDGET_MS";
export const TOKEN_VAR = "TEXT2SPARQL_TOKEN";
/** The 2026 client ran with a 180 s timeout per question: 170 s leaves time to send the answer. */
export const DEFAULT_BUDGET_MS = 170_000;
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

export interface StrategyChoice {
  strategy: StrategyId;
  /** why this one: "TEXT2SPARQL_STRATEGY", the evaluation runs it won, or the documented default */
  reason: string;
}

const isStrategyId = (s: string): s is StrategyId => (STRATEGY_IDS as readonly string[]).includes(s);

/** The KG a dataset is answered on, as the default-strategy rule keys it ("sample": the installation's KG_DEFAULT). */
export function datasetKgKey(dataset: Pick<DatasetTarget, "value">, env: Env = process.env): string | null {
  return kgKeyOf(dataset.value === "sample" ? env.KG_DEFAULT?.trim() || "sample" : dataset.value);
}

/**
 * TEXT2SPARQL_STRATEGY when set; else the same rule as a new conversation (lib/server/default-strategy.ts) for the
 * dataset's KG, among the strategies that write SPARQL.
 */
export function chooseStrategy(env: Env, runs: () => EvidenceRun[], kgKey: string | null): StrategyChoice {
  const set = env[STRATEGY_VAR]?.trim();
  if (set) {
    if (!isStrategyId(set)) throw new AppError("bad_request", `${STRATEGY_VAR}="${set}" is not a strategy. Known: ${STRATEGY_IDS.join(", ")}.`);
    if (NO_SPARQL_STRATEGIES.has(set)) throw new AppError("bad_request", `${STRATEGY_VAR}="${set}" writes no SPARQL query; TEXT2SPARQL needs one.`);
    return { strategy: set, reason: STRATEGY_VAR };
  }
  const sparql = (s: StrategyId) => !NO_SPARQL_STRATEGIES.has(s);
  const choice = configuredDefault(env, sparql) ?? chooseDefaultStrategy(kgKey, runs(), sparql);
  return { strategy: choice.strategy, reason: choice.reason };
}
