import { describe, expect, it } from "vitest";
import { bm25Tokens, createBm25Index, normalizedBm25 } from "./bm25";

describe("BM25", () => {
  it("ranks the document sharing the rarer words first and scores unrelated ones 0", () => {
    const docs = ["list all lines in the region", "list all terminals of the node", "who wrote the novel"];
    const scores = createBm25Index(docs).scores("terminals connected to node");
    expect(scores[1]).toBeGreaterThan(scores[0]);
    expect(scores[2]).toBe(0);
  });

  it("meets plurals and verb endings halfway and scales to [0, 1]", () => {
    expect(bm25Tokens("Terminals connected")).toEqual(["terminal", "connect"]);
    const [same, other] = normalizedBm25("list the terminals", ["list the terminals", "list the novels"]);
    expect(same).toBeCloseTo(1, 5);
    expect(other).toBeLessThan(same);
  });
});
