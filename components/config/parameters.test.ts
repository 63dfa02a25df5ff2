import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG, pipelineConfigSchema, STRATEGY_IDS } from "@/lib/pipeline/types";
import { changedParameters, formatValue, PARAMETERS, parametersFor } from "./parameters";

describe("the Advanced sheet's parameters", () => {
  it("match the pipeline schema's bounds, so the sheet never offers a value the server refuses", () => {
    for (const p of PARAMETERS) {
      if (p.kind !== "number") continue;
      expect(pipelineConfigSchema.safeParse({ [p.key]: p.min }).success, `${p.key} min`).toBe(true);
      expect(pipelineConfigSchema.safeParse({ [p.key]: p.max }).success, `${p.key} max`).toBe(true);
      expect(pipelineConfigSchema.safeParse({ [p.key]: p.min - 1 }).success, `${p.key} below min`).toBe(false);
      expect(pipelineConfigSchema.safeParse({ [p.key]: p.max + 1 }).success, `${p.key} above max`).toBe(false);
    }
  });

  it("give every parameter a sentence and list each key once", () => {
    expect(new Set(PARAMETERS.map((p) => p.key)).size).toBe(PARAMETERS.length);
    for (const p of PARAMETERS) expect(p.sentence.length, p.key).toBeGreaterThan(30);
  });

  it("show each strategy its own parameters and the shared ones", () => {
    expect(parametersFor("triad").own.map((p) => p.key)).toEqual(
      expect.arrayContaining(["triadExamples", "triadEntityCandidates", "triadRelationCandidates", "triadRetries", "allowModelKnowledge"]),
    );
    expect(parametersFor("chatty-kg").own.map((p) => p.key)).not.toContain("triadRetries");
    expect(parametersFor("chatty-kg").shared.map((p) => p.key)).toContain("theta");
    expect(parametersFor("llm-only").shared.map((p) => p.key)).not.toContain("queryTimeoutMs");
    for (const id of STRATEGY_IDS) expect(parametersFor(id).shared.length, id).toBeGreaterThan(0);
  });

  it("count what differs from the defaults and format values", () => {
    expect(changedParameters(DEFAULT_CONFIG)).toEqual([]);
    expect(changedParameters({ ...DEFAULT_CONFIG, theta: 5, triadRetries: 0 }).map((p) => p.key)).toEqual(["theta"]);
    expect(changedParameters({ ...DEFAULT_CONFIG, strategy: "triad", triadRetries: 0 }).map((p) => p.key)).toEqual(["triadRetries"]);
    const timeout = PARAMETERS.find((p) => p.key === "queryTimeoutMs")!;
    expect(formatValue(timeout, 20_000)).toBe("20,000 ms");
  });
});
