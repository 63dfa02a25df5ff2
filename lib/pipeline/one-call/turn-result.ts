// Folds a one-call turn's state and trace into the TurnResult the UI stores and benchmarks score.
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { turnStats } from "@/lib/pipeline/common/turn-stats";
import type { OneCallState } from "./state";

/** What the Chat agent's KG tool reports back to the Chat agent. */
export function kgToolSummary(state: OneCallState): string {
  if (state.failure) return `Failed at ${state.failure.stage}: ${state.failure.message}`;
  return state.answer ? describeAnswer(state.answer, 10) : "No answer.";
}

export function buildTurnResult(state: OneCallState, events: DerivationEvent[], stageMs: Partial<Record<Stage, number>>, ms: number): TurnResult {
  const stats = turnStats(events, stageMs, ms);
  if (state.route === "reply" && state.reply) return { answer: state.reply, source: "conversation", sparql: [], stats };
  // the final query is shown (and can be edited and re-run) even when it found nothing
  const sparql = state.sparql ? [state.sparql] : [];
  if (state.failure) {
    return {
      answer: { kind: "none", reason: state.failure.message },
      source: "failed",
      standaloneQuestion: state.standaloneQuestion,
      sparql,
      error: { code: state.failure.code, message: state.failure.message, stage: state.failure.stage },
      stats,
    };
  }
  const answer = state.answer ?? { kind: "none" as const, reason: "The KG has no answer to this question." };
  return { answer, source: answer.kind === "none" ? "none" : "kg", standaloneQuestion: state.standaloneQuestion, sparql, stats };
}
