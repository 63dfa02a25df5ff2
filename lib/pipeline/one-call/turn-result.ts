// Folds a one-call turn's state and trace into the TurnResult the UI stores and benchmarks score (the shared builder;
// the one query of the turn is its SPARQL).
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { buildTurnResult as buildShared } from "@/lib/pipeline/common/turn-result";
import type { OneCallState } from "./state";

export { kgToolSummary } from "@/lib/pipeline/common/turn-result";

export function buildTurnResult(state: OneCallState, events: DerivationEvent[], stageMs: Partial<Record<Stage, number>>, ms: number): TurnResult {
  // the final query is shown (and can be edited and re-run) even when it found nothing
  return buildShared(state, events, stageMs, ms, { sparql: state.sparql ? [state.sparql] : [] });
}
