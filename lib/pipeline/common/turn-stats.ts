// A turn's cost from its derivation events: LLM calls and tokens, SPARQL queries, time per stage.
import type { DerivationEvent, Stage, TurnStats } from "@/lib/pipeline/types";

export function turnStats(events: readonly DerivationEvent[], stageMs: Partial<Record<Stage, number>>, ms: number): TurnStats {
  let llmCalls = 0;
  let tokensIn = 0;
  let tokensOut = 0;
  let queries = 0;
  let toolCalls = 0;
  for (const e of events) {
    if (e.type === "llm-call") {
      llmCalls++;
      tokensIn += e.call.tokensIn;
      tokensOut += e.call.tokensOut;
    } else if (e.type === "sparql") queries++;
    else if (e.type === "tool-call" && e.stage === "explore") toolCalls++;
  }
  return { ms, llmCalls, tokensIn, tokensOut, queries, stageMs, ...(toolCalls ? { toolCalls } : {}) };
}
