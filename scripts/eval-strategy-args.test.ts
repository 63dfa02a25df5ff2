import { describe, expect, it } from "vitest";
import { outDirFor, strategyConfigFromArgs, strategyIdsFromArg } from "./eval-strategy-args";

describe("eval strategy flags", () => {
  it("takes several strategies, in order, each once; an unknown one names the known ones", () => {
    expect(strategyIdsFromArg("triad, chatty-kg,triad")).toEqual(["triad", "chatty-kg"]);
    expect(strategyIdsFromArg(undefined)).toEqual(["chatty-kg"]);
    expect(() => strategyIdsFromArg("triad,nope")).toThrow(/Unknown strategy "nope". Available: chatty-kg, .*triad/);
  });

  it("reads Triad's N, K, K, T and the model-knowledge switch, refusing values outside the schema's range", () => {
    expect(strategyConfigFromArgs({ "triad-examples": "1", "triad-entity-k": "3", "triad-relation-k": "1", "triad-retries": "0", "allow-model-knowledge": true })).toEqual({
      triadExamples: 1,
      triadEntityCandidates: 3,
      triadRelationCandidates: 1,
      triadRetries: 0,
      allowModelKnowledge: true,
    });
    expect(strategyConfigFromArgs({})).toEqual({});
    expect(() => strategyConfigFromArgs({ "triad-entity-k": "0" })).toThrow(/^--triad-entity-k: /);
    expect(() => strategyConfigFromArgs({ "triad-retries": "two" })).toThrow("--triad-retries must be an integer");
  });

  it("puts each strategy's run in its own folder beside --out when there are several (the eval page lists each)", () => {
    expect(outDirFor("triad", "r", "/tmp/x", true, ".data/eval")).toBe("/tmp/x-triad");
    expect(outDirFor("triad", "r", "/tmp/x/", true, ".data/eval")).toBe("/tmp/x-triad");
    expect(outDirFor("triad", "r", "/tmp/x", false, ".data/eval")).toBe("/tmp/x");
    expect(outDirFor("triad", "ck25-triad-t", undefined, true, "/runs")).toBe("/runs/ck25-triad-t");
  });
});
