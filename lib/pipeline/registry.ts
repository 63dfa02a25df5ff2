// The strategies the app and the benchmarks can run; new ones (RAGONITE, mKGQAgent, Triad, baselines) register here.
import { AppError } from "@/lib/errors";
import { chattyKgStrategy } from "./chatty-kg/strategy";
import type { Strategy, StrategyId } from "./types";

export const STRATEGIES: readonly Strategy[] = [chattyKgStrategy];

export function getStrategy(id: StrategyId | string): Strategy {
  const strategy = STRATEGIES.find((s) => s.id === id);
  if (!strategy) throw new AppError("bad_request", `Unknown strategy "${id}". Available: ${STRATEGIES.map((s) => s.id).join(", ")}.`);
  return strategy;
}
