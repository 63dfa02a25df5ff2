// State pieces several strategies' turn states share: a query they ran, and what the TurnResult is folded from.
import type { Answer } from "@/lib/pipeline/types";
import type { StageFailure } from "./stage-runner";

export interface ExecutedQuery {
  id: number;
  sparql: string;
  rows: number;
  ms: number;
  error?: string;
}

/** The fields of a strategy's state a TurnResult is built from (common/turn-result.ts). */
export interface TurnOutcome {
  /** the Chat agent answered about the conversation instead of asking the KG */
  route?: "kg" | "reply";
  reply?: Extract<Answer, { kind: "chat" | "clarify" }>;
  standaloneQuestion?: string;
  answer?: Answer;
  naturalAnswer?: string;
  failure?: StageFailure;
}
