// Folds the final Chatty-KG state and the trace into the TurnResult (common/turn-result.ts), with the state snapshot a
// correction re-runs the turn from.
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { buildTurnResult as buildCommonResult } from "@/lib/pipeline/common/turn-result";
import type { ChattyState } from "./state";
import { toSnapshot } from "./snapshot";

export { kgToolSummary } from "@/lib/pipeline/common/turn-result";

export function buildTurnResult(
  state: ChattyState,
  events: DerivationEvent[],
  stageMs: Partial<Record<Stage, number>>,
  ms: number,
): TurnResult {
  const sparql = (state.executed ?? []).filter((q) => q.rows > 0).map((q) => q.sparql);
  const standaloneQuestion = state.standaloneQuestion ?? state.englishQuestion;
  // kept with the attempt: a user's correction re-runs the turn from one step of it (rerun.ts)
  const snapshot = state.route === "reply" && state.reply ? undefined : toSnapshot(state);
  return buildCommonResult({ ...state, standaloneQuestion }, events, stageMs, ms, { sparql, snapshot });
}
