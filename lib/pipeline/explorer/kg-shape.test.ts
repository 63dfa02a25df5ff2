// The schema summary is built once per KG and cached: its queries stay outside the turn's KG budget (a summary cut
// short would not be kept, and every later turn would start it again).
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG, type DerivationEvent } from "@/lib/pipeline/types";
import { createFixtureKg } from "@/test/fixtures/kg/harness";
import { buildKgShape } from "./kg-shape";

describe("buildKgShape", () => {
  it("builds the whole summary on a turn whose KG budget allows a single query, and leaves the budget untouched", async () => {
    const events: DerivationEvent[] = [];
    const ctx = createAgentContext({
      kg: createFixtureKg(),
      llm: createScriptedLlm().gateway,
      similarity: createLexicalSimilarity(),
      config: DEFAULT_CONFIG,
      emit: (e) => events.push(e),
      budget: { queries: 1, ms: 60_000 },
    });
    const shape = await buildKgShape(ctx, "plan");
    expect(shape.classes.length).toBeGreaterThan(1);
    expect(events.filter((e) => e.type === "sparql").length).toBeGreaterThan(1);
    expect(events.some((e) => e.type === "warning")).toBe(false);
    expect(ctx.budget.used().queries).toBe(0);
  });
});
