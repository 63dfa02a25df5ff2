// Folds a RAGONITE turn's state and trace into the TurnResult the UI stores and benchmarks score.
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { turnStats } from "@/lib/pipeline/common/turn-stats";
import type { RagoniteState } from "./state";

/** The SQL queries the answer cites (what the query panel shows), in the order they ran. */
export function answerSql(state: RagoniteState): string[] {
  const a = state.answer;
  const cited = a && "citations" in a ? (a.citations ?? []) : [];
  return [...new Set(cited.flatMap((c) => (c.query ? [c.query] : [])))];
}

export function buildTurnResult(state: RagoniteState, events: DerivationEvent[], stageMs: Partial<Record<Stage, number>>, ms: number): TurnResult {
  const stats = turnStats(events, stageMs, ms);
  if (state.route === "reply" && state.reply) return { answer: state.reply, source: "conversation", sparql: [], stats };
  const standaloneQuestion = state.standaloneQuestion;
  if (state.failure) {
    return {
      answer: { kind: "none", reason: state.failure.message },
      source: "failed",
      standaloneQuestion,
      sparql: [],
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
    sparql: [],
    sql: answerSql(state),
    stats,
  };
}
