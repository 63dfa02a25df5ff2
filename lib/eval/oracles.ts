// Which oracle plays the LLM: one per oracle kind and strategy. `--llm oracle` is the question-grounded kind (what it
// writes comes from the asked question and the tools' outputs), `--llm oracle-gold-shape` today's gold-shape copy.
// Every oracle sees the item without its gold answers: only the gold query may be read.
import { AppError } from "@/lib/errors";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { PipelineConfig } from "@/lib/pipeline/types";
import { createExplorerOracleLlm, createGroundedExplorerOracleLlm } from "./oracle-explorer";
import { ORACLE_KIND_LABELS, type OracleKind } from "./oracle-grounding";
import { createOracleLlm, ORACLE_LLM_INFO, type OracleGateway } from "./oracle-llm";
import { createGroundedOracleLlm, GROUNDED_ORACLE_LLM_INFO } from "./oracle-llm-grounded";
import { createOneCallOracleLlm } from "./oracle-one-call";
import { createGroundedTriadOracleLlm, createTriadOracleLlm } from "./oracle-llm-triad";
import type { BenchmarkItem } from "./types";

/** A fresh LLM for one item, answering every role the strategy calls from that item's gold SPARQL, with its log. */
export type OracleFactory = (item: BenchmarkItem, kg: KnowledgeGraph, config: PipelineConfig, signal?: AbortSignal) => Promise<OracleGateway>;

/** The `--llm` value of each kind. */
export const ORACLE_LLM_VALUES: Record<OracleKind, string> = { "question-grounded": "oracle", "gold-shape": "oracle-gold-shape" };
export const oracleKindOfArg = (llm: string | undefined): OracleKind | undefined =>
  (Object.entries(ORACLE_LLM_VALUES) as [OracleKind, string][]).find(([, v]) => v === llm)?.[0];

/** What results record as the run's LLM for each kind (llm.provider "oracle"; the model names the kind). */
export const ORACLE_INFO: Record<OracleKind, { provider: string; model: string }> = { "question-grounded": GROUNDED_ORACLE_LLM_INFO, "gold-shape": ORACLE_LLM_INFO };

const k = (config: PipelineConfig) => ({ entities: config.triadEntityCandidates, relations: config.triadRelationCandidates });

// one per line: strategies add their oracle here
export const ORACLES: Readonly<Record<OracleKind, Readonly<Record<string, OracleFactory>>>> = {
  "question-grounded": {
    "chatty-kg": (item, kg, _config, signal) => createGroundedOracleLlm(item, kg, signal),
    explorer: (item, kg, _config, signal) => createGroundedExplorerOracleLlm(item, kg, signal),
    "one-call": (item, kg, _config, signal) => createOneCallOracleLlm(item, kg, signal),
    triad: (item, kg, config, signal) => createGroundedTriadOracleLlm(item, kg, { signal, k: k(config) }),
  },
  "gold-shape": {
    "chatty-kg": (item, kg, _config, signal) => createOracleLlm(item, kg, signal),
    explorer: (item, kg, _config, signal) => createExplorerOracleLlm(item, kg, signal),
    triad: (item, kg, config, signal) => createTriadOracleLlm(item, kg, { signal, k: k(config) }),
  },
};

/**
 * The item as an oracle may see it: its gold answers are not there (reading them throws), so no oracle can copy an
 * answer; the gold query, the question, its language versions and the dataset's standalone rewrite stay.
 */
export function oracleView(item: BenchmarkItem): BenchmarkItem {
  const { goldAnswers: _answers, ...rest } = item;
  void _answers;
  return Object.defineProperty({ ...rest }, "goldAnswers", {
    enumerable: false,
    get() {
      throw new AppError("internal", `Oracle: question ${item.id}: an oracle read the gold answers (only the gold query may be read).`);
    },
  });
}

/** The strategy's oracle of that kind (fed the item without its answers), or AppError("bad_request") naming those that have one. */
export function oracleFor(strategy: string, kind: OracleKind = "question-grounded"): OracleFactory {
  const oracle = ORACLES[kind][strategy];
  if (!oracle) throw new AppError("bad_request", `--llm ${ORACLE_LLM_VALUES[kind]} is not available for strategy "${strategy}" (available: ${Object.keys(ORACLES[kind]).join(", ")}).`);
  return (item, kg, config, signal) => oracle(oracleView(item), kg, config, signal);
}

export { ORACLE_KIND_LABELS };
