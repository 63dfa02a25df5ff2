// Folds the final Chatty-KG state and the trace into the TurnResult (common/turn-result.ts), with the state snapshot a
// correction re-runs the turn from.
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { buildTurnResult as buildCommonResult } from "@/lib/pipeline/common/turn-result";
import type { ChattyState } from "./state";
import { toSnapshot } from "./snapshot";

export function kgToolSummary(state: ChattyState): string {
  if (state.failure) return `Failed at ${state.failure.stage}: ${state.failure.message}`;
  return state.answer ? describeAnswer(state.answer, 10) : "No answer.";
}

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
