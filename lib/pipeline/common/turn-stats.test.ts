import { describe, expect, it } from "vitest";
import type { LlmCallRecord } from "@/lib/llm/types";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { turnStats } from "./turn-stats";

const call = (tokensIn: number, tokensOut: number) => ({ tokensIn, tokensOut }) as LlmCallRecord;

describe("turnStats", () => {
  it("counts LLM calls with their tokens and SPARQL queries (failed ones too), and keeps the stage times", () => {
    const events: DerivationEvent[] = [
      { type: "stage-start", stage: "qir", at: 0 },
      { type: "llm-call", stage: "qir", call: call(100, 20) },
      { type: "llm-call", stage: "qir", call: call(120, 25) },
      { type: "sparql", stage: "execution", purpose: "x", query: "ASK {}", ms: 3, rows: 1 },
      { type: "sparql", stage: "execution", purpose: "y", query: "ASK {}", ms: 2, rows: 0, error: "timeout" },
      { type: "stage-end", stage: "qir", at: 1, ms: 1, summary: "" },
    ];
    expect(turnStats(events, { qir: 5 }, 42)).toEqual({ ms: 42, llmCalls: 2, tokensIn: 220, tokensOut: 45, queries: 2, stageMs: { qir: 5 } });
  });
});
