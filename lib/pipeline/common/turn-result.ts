// Folds a turn's final state and trace into the TurnResult the UI stores and benchmarks score: a conversational reply,
// a failure at a stage, or the answer (kind "none" when the KG has none; never a guess).
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import type { TurnOutcome } from "./state";
import { turnStats } from "./turn-stats";

/** What the Chat agent's KG tool reports back to the Chat agent: the failure, or the answer in short. */
export function kgToolSummary(state: TurnOutcome): string {
  if (state.failure) return `Failed at ${state.failure.stage}: ${state.failure.message}`;
  return state.answer ? describeAnswer(state.answer, 10) : "No answer.";
}

export interface TurnResultParts {
  /** the queries the answer rests on (also kept with a failure: the user may correct them) */
  sparql: string[];
  /** the strategy's state kept with the attempt for a re-run after a correction; not for conversational replies */
  snapshot?: unknown;
  /** who gave a non-empty answer: the KG (default) or the model's own knowledge (labelled "not from the KG") */
  answeredBy?: "kg" | "llm";
}

export function buildTurnResult(
  state: TurnOutcome,
  events: readonly DerivationEvent[],
  stageMs: Partial<Record<Stage, number>>,
  ms: number,
  parts: TurnResultParts,
): TurnResult {
  const stats = turnStats(events, stageMs, ms);
  if (state.route === "reply" && state.reply) return { answer: state.reply, source: "conversation", sparql: [], stats };
  const { standaloneQuestion } = state;
  const snapshot = parts.snapshot === undefined ? {} : { snapshot: parts.snapshot };
  if (state.failure) {
    const { stage, code, message } = state.failure;
    return { ...snapshot, answer: { kind: "none", reason: message }, source: "failed", standaloneQuestion, sparql: parts.sparql, error: { code, message, stage }, stats };
  }
  const answer = state.answer ?? { kind: "none" as const, reason: "The KG has no answer to this question." };
  const source = answer.kind === "none" ? "none" : (parts.answeredBy ?? "kg");
  return { answer, source, standaloneQuestion, naturalAnswer: state.naturalAnswer, sparql: parts.sparql, stats, ...snapshot };
}
