// Folds the final state and the trace into the TurnResult the UI stores and benchmarks score.
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { turnStats } from "@/lib/pipeline/common/turn-stats";
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
  const stats = turnStats(events, stageMs, ms);
  const sparql = (state.executed ?? []).filter((q) => q.rows > 0).map((q) => q.sparql);
  const standaloneQuestion = state.standaloneQuestion ?? state.englishQuestion;

  if (state.route === "reply" && state.reply) {
    return { answer: state.reply, source: "conversation", sparql: [], stats };
  }
  // kept with the attempt: a user's correction re-runs the turn from one step of it (rerun.ts)
  const snapshot = toSnapshot(state);
  if (state.failure) {
    return {
      snapshot,
      answer: { kind: "none", reason: state.failure.message },
      source: "failed",
      standaloneQuestion,
      sparql,
      error: { code: state.failure.code, message: state.failure.message, stage: state.failure.stage },
      stats,
    };
  }
  const answer = state.answer ?? { kind: "none" as const, reason: "The KG has no answer to this question." };
  return {
    answer,
    source: answer.kind === "none" ? "none" : "kg",
    standaloneQuestion,
    naturalAnswer: state.naturalAnswer,
    sparql,
    stats,
    snapshot,
  };
}
