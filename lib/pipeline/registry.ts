// The strategies the app and the benchmarks can run; new ones (RAGONITE, mKGQAgent, Triad, baselines) register here.
import { AppError } from "@/lib/errors";
import { chattyKgStrategy } from "./chatty-kg/strategy";
import { llmOnlyStrategy } from "./baselines/llm-only";
import { oneShotSparqlStrategy } from "./baselines/one-shot-sparql";
import { triadStrategy } from "./triad/strategy";
import { ragoniteStrategy } from "./ragonite/strategy";
import { explorerStrategy } from "./explorer/strategy";
import { oneCallStrategy } from "./one-call/strategy";
import type { Strategy, StrategyId } from "./types";

// Baselines run behind the same interface so benchmark comparisons use the same inputs, traces and scoring.
// one per line: strategies are added by different people
export const STRATEGIES: readonly Strategy[] = [
  chattyKgStrategy,
  llmOnlyStrategy,
  oneShotSparqlStrategy,
  triadStrategy,
  ragoniteStrategy,
  explorerStrategy,
  oneCallStrategy,
];

export function getStrategy(id: StrategyId | string): Strategy {
  const strategy = STRATEGIES.find((s) => s.id === id);
  if (!strategy) throw new AppError("bad_request", `Unknown strategy "${id}". Available: ${STRATEGIES.map((s) => s.id).join(", ")}.`);
  return strategy;
}
