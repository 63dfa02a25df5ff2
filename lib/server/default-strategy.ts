// Which strategy a new conversation (and TEXT2SPARQL, and MCP) uses on a KG, and why — one rule, from evidence
// (docs/strategies.md "The default strategy"; STRATEGY_DEFAULT fixes it): when the installation holds complete evaluation runs of this KG made
// with a real model (oracle, replayed and hand-written fixture runs never count) by at least two strategies on the
// same questions, the best of them by macro F1; otherwise the documented default chosen from the development sets.
import path from "node:path";
import { parseKgArg } from "@/lib/kg/open-kg";
import { STRATEGY_IDS, type StrategyId } from "@/lib/pipeline/types";
import type { EvalRunStore } from "./eval-runs";

/**
 * Chosen from the question-grounded ceilings, LLM calls, tokens and latency on the development sets
 * (docs/strategies.md "The default strategy" gives the numbers and the reasoning).
 */
export const DOCUMENTED_DEFAULT: StrategyId = "explorer";
/** Reasons read after "chosen because" (the settings) and in parentheses (MCP list_kgs). */
export const DOCUMENTED_REASON =
  "it is the documented default, with the highest question-grounded ceiling on the development sets (docs/strategies.md); no evaluation runs of this KG with a real model compare strategies yet";

/** An installation may fix the default for every KG (e.g. the e2e server, whose scripted model plays one strategy). */
export const STRATEGY_DEFAULT_VAR = "STRATEGY_DEFAULT";

/** STRATEGY_DEFAULT when it names a strategy (`allowed` among them), else null (an unknown name is ignored, and said). */
export function configuredDefault(env: Record<string, string | undefined>, allowed: (s: StrategyId) => boolean = () => true): DefaultStrategy | null {
  const set = env[STRATEGY_DEFAULT_VAR]?.trim();
  if (!set || !isStrategyId(set) || !allowed(set)) return null;
  return { strategy: set, reason: `the server's ${STRATEGY_DEFAULT_VAR} setting names it`, source: "setting" };
}

/** Providers whose runs are not a model answering: ceilings, replays, hand-written fixtures, replayed queries. */
const NOT_A_MODEL = new Set(["oracle", "fixture", "replay", "none"]);

export interface DefaultStrategy {
  strategy: StrategyId;
  /** one sentence a person reads in the settings */
  reason: string;
  source: "eval-runs" | "documented" | "setting";
}

/** One evaluation run as the rule reads it. */
export interface EvidenceRun {
  strategy: string;
  /** the KG it ran on, as a key (kgKeyOf) */
  kgKey: string | null;
  /** the questions it ran: dataset, file and count (runs on other questions are not compared) */
  questionsKey: string;
  startedAt: string;
  complete: boolean;
  /** the model's provider ("oracle", "fixture", … are not models) */
  provider: string;
  model: string;
  /** macro F1 over all questions (unanswered = 0), KG-grounded */
  f1: number;
}

/**
 * A KG's identity across the app and the eval CLI: "sample", "endpoint:<origin+path>", or "files:<absolute paths,
 * sorted>" (relative paths resolve from `rootDir`, the installation's folder). Null when the text names no KG.
 */
export function kgKeyOf(arg: string, rootDir = process.cwd()): string | null {
  try {
    const spec = parseKgArg(arg);
    if (spec.kind === "sample") return "sample";
    if (spec.kind === "endpoint") {
      const u = new URL(spec.url);
      return `endpoint:${u.origin}${u.pathname.replace(/\/+$/, "")}`;
    }
    if (spec.kind === "files") return `files:${spec.paths.map((p) => path.resolve(rootDir, p)).sort().join(",")}`;
    return null;
  } catch {
    return null;
  }
}

const isStrategyId = (s: string): s is StrategyId => (STRATEGY_IDS as readonly string[]).includes(s);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/**
 * The rule. `allowed` narrows the strategies that may be chosen (TEXT2SPARQL needs one that writes SPARQL); the
 * documented default is assumed allowed.
 */
export function chooseDefaultStrategy(kgKey: string | null, runs: EvidenceRun[], allowed: (s: StrategyId) => boolean = () => true): DefaultStrategy {
  const usable = runs.filter((r) => kgKey !== null && r.kgKey === kgKey && r.complete && !NOT_A_MODEL.has(r.provider) && isStrategyId(r.strategy) && allowed(r.strategy));
  // per set of questions, the newest run of each strategy
  const bySet = new Map<string, Map<string, EvidenceRun>>();
  for (const r of [...usable].sort((a, b) => b.startedAt.localeCompare(a.startedAt))) {
    const set = bySet.get(r.questionsKey) ?? new Map<string, EvidenceRun>();
    if (!set.has(r.strategy)) set.set(r.strategy, r);
    bySet.set(r.questionsKey, set);
  }
  // the set most strategies ran on (ties: the one run last) decides
  const sets = [...bySet.entries()].filter(([, s]) => s.size >= 2);
  sets.sort((a, b) => b[1].size - a[1].size || newest(b[1]).localeCompare(newest(a[1])));
  const chosen = sets[0];
  if (!chosen) return { strategy: DOCUMENTED_DEFAULT, reason: DOCUMENTED_REASON, source: "documented" };
  const ranked = [...chosen[1].values()].sort((a, b) => b.f1 - a.f1 || a.strategy.localeCompare(b.strategy));
  const best = ranked[0];
  const others = ranked.slice(1).map((r) => `${r.strategy} ${pct(r.f1)}`).join(", ");
  return {
    strategy: best.strategy as StrategyId,
    reason: `it has the best macro F1 in this KG's evaluation runs with a real model (${best.model}): ${best.strategy} ${pct(best.f1)}, ${others} — ${chosen[0].split("\n")[0]}`,
    source: "eval-runs",
  };
}

const newest = (set: Map<string, EvidenceRun>) => [...set.values()].map((r) => r.startedAt).sort().at(-1) ?? "";

/** The installation's CLI runs (the eval page's, not a browser's imports) as the rule reads them. */
export function evidenceRuns(store: EvalRunStore, rootDir = process.cwd()): EvidenceRun[] {
  return store.list(null).flatMap((e) => {
    if (e.status !== "ok" || e.owner !== "installation" || e.modes.length === 0) return [];
    const result = store.load(null, e.ref).result;
    if (!result || result.suite) return []; // a suite spans several KGs
    const questions = result.summary.modes[0]?.questions ?? 0;
    return [
      {
        strategy: result.strategy.id,
        kgKey: kgKeyOf(result.config.kg, rootDir),
        questionsKey: `${result.config.dataset} ${path.basename(result.config.file)} (${questions} questions)\n${result.config.file}`,
        startedAt: result.startedAt,
        complete: result.complete,
        provider: result.llm.provider,
        model: result.llm.model,
        f1: e.modes[0].f1All,
      },
    ];
  });
}

/** A KG as the app lists it: the default KG (KG_DEFAULT), an endpoint (its URL) or an upload (no CLI run names it). */
export interface KgForDefault {
  id: string;
  kind: string;
  url?: string;
}

/** The KG's key: the default KG from KG_DEFAULT, an endpoint from its URL; an upload has none (the documented default). */
export function kgKeyOfListed(kg: KgForDefault, defaultKgId: string, env: Record<string, string | undefined> = process.env, rootDir = process.cwd()): string | null {
  if (kg.id === defaultKgId) return kgKeyOf(env.KG_DEFAULT?.trim() || "sample", rootDir);
  if (kg.kind === "endpoint" && kg.url) return kgKeyOf(kg.url, rootDir);
  return null;
}

/** The default strategy of each listed KG, from the installation's evaluation runs (read once per call). */
export function defaultStrategiesFor<T extends KgForDefault>(kgs: T[], defaultKgId: string, store: EvalRunStore, env: Record<string, string | undefined> = process.env): (T & { defaultStrategy: DefaultStrategy })[] {
  // a default the setting fixes needs no evidence: the runs folder is not read
  const fixed = configuredDefault(env);
  if (fixed) return kgs.map((kg) => ({ ...kg, defaultStrategy: fixed }));
  let runs: EvidenceRun[] = [];
  try {
    runs = evidenceRuns(store);
  } catch {
    // an unreadable runs folder is no evidence: every KG gets the documented default
  }
  return kgs.map((kg) => ({ ...kg, defaultStrategy: chooseDefaultStrategy(kgKeyOfListed(kg, defaultKgId, env), runs) }));
}
