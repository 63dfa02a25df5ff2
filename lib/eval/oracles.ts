// Which oracle plays the LLM for `--llm oracle`: one per strategy (each reads the gold SPARQL its own way).
import { AppError } from "@/lib/errors";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import type { PipelineConfig } from "@/lib/pipeline/types";
import { createOracleLlm } from "./oracle-llm";
import { createTriadOracleLlm } from "./oracle-llm-triad";
import { createExplorerOracleLlm } from "./oracle-explorer";
import type { BenchmarkItem } from "./types";

/** A fresh LLM for one item, answering every role the strategy calls from that item's gold SPARQL. */
export type OracleFactory = (item: BenchmarkItem, kg: KnowledgeGraph, config: PipelineConfig, signal?: AbortSignal) => Promise<LlmGateway>;

// one per line: strategies add their oracle here
export const ORACLES: Readonly<Record<string, OracleFactory>> = {
  "chatty-kg": (item, kg, _config, signal) => createOracleLlm(item, kg, signal),
  explorer: (item, kg, _config, signal) => createExplorerOracleLlm(item, kg, signal),
  triad: (item, kg, config, signal) => createTriadOracleLlm(item, kg, { signal, k: { entities: config.triadEntityCandidates, relations: config.triadRelationCandidates } }),
};

/** The strategy's oracle, or AppError("bad_request") naming the strategies that have one. */
export function oracleFor(strategy: string): OracleFactory {
  const oracle = ORACLES[strategy];
  if (!oracle) throw new AppError("bad_request", `--llm oracle is not available for strategy "${strategy}" (available: ${Object.keys(ORACLES).join(", ")}).`);
  return oracle;
}
