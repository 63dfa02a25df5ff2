// The strategies the strip offers, as the server's registry names them (label + one-line description), with the
// raw ids as a fallback so the strip still works when a page passes none.
import { STRATEGY_IDS, type StrategyId } from "@/lib/pipeline/types";
import type { CorrectionKind } from "@/lib/pipeline/corrections";

export interface StrategyInfo {
  id: StrategyId;
  label: string;
  description: string;
  /** the step corrections its turns can be re-run with (Strategy.rerun.kinds; an edited final query works for all) */
  corrections?: readonly CorrectionKind[];
}

/** The given strategies in registry order, plus any known id the server did not describe (shown by its id). */
export function strategyOptions(given: readonly StrategyInfo[] | undefined): StrategyInfo[] {
  const byId = new Map((given ?? []).map((s) => [s.id, s]));
  return STRATEGY_IDS.map((id) => byId.get(id) ?? { id, label: id, description: "" });
}
