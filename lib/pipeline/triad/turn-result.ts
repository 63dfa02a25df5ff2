// Folds the final Triad state and the trace into the TurnResult the UI stores and benchmarks score.
import { describeAnswer, NOT_FROM_KG } from "@/lib/pipeline/answer-format";
import type { DerivationEvent, Stage, TurnResult } from "@/lib/pipeline/types";
import { turnStats } from "@/lib/pipeline/common/turn-stats";
import type { TriadState } from "./state";

/** What the KG tool tells the Chat agent. */
export function kgToolSummary(state: TriadState): string {
  if (state.failure) return `Failed at ${state.failure.stage}: ${state.failure.message}`;
  if (!state.answer) return "No answer.";
  return state.answerSource === "llm" ? `(${NOT_FROM_KG}) ${describeAnswer(state.answer, 10)}` : describeAnswer(state.answer, 10);
}

export function buildTriadResult(state: TriadState, events: DerivationEvent[], stageMs: Partial<Record<Stage, number>>, ms: number): TurnResult {
  const stats = turnStats(events, stageMs, ms);
  if (state.route === "reply" && state.reply) return { answer: state.reply, source: "conversation", sparql: [], stats };
  const standaloneQuestion = state.standaloneQuestion;
  if (state.failure) {
    const { stage, code, message } = state.failure;
    return { answer: { kind: "none", reason: message }, source: "failed", standaloneQuestion, sparql: [], error: { code, message, stage }, stats };
  }
  const answer = state.answer ?? { kind: "none" as const, reason: "The KG has no answer to this question." };
  if (answer.kind === "none") return { answer, source: "none", standaloneQuestion, sparql: [], stats };
  const fromKg = state.answerSource !== "llm";
  return { answer, source: fromKg ? "kg" : "llm", standaloneQuestion, sparql: fromKg && state.chosen ? [state.chosen.sparql] : [], stats };
}
