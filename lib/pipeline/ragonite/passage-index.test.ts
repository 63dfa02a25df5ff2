import { describe, expect, it } from "vitest";
import type { Similarity } from "@/lib/embeddings/types";
import { buildPassageIndex } from "./passage-index";
import type { Passage } from "./verbalize";

const passage = (id: number, label: string, text: string): Passage => ({ id: `P${id}`, subject: `http://ex.org/${id}`, label, text, facts: [], part: 1 });
const PASSAGES = [passage(1, "Bolt", "Bolt has weight 12."), passage(2, "Nut", "Nut is a small fastener."), passage(3, "Washer", "Washer has thickness 1.")];

// A toy embedding model: one dimension per concept word, so "tiny hardware" lands near "small fastener" without sharing a word.
const CONCEPTS = [["small", "tiny"], ["fastener", "hardware"], ["weight", "heavy"]];
const toy: Pick<Similarity, "kind" | "name" | "embed"> = {
  kind: "transformers",
  name: "toy-embedder",
  embed: async (texts) => texts.map((t) => CONCEPTS.map((words) => (words.some((w) => t.toLowerCase().includes(w)) ? 1 : 0))),
};

describe("passage index", () => {
  it("searches with BM25 alone and says so when no embedding model is there", async () => {
    const index = await buildPassageIndex(PASSAGES, { similarity: { kind: "lexical", name: "lexical", warning: "model folder missing" } });
    expect(index.mode).toBe("bm25");
    expect(index.note).toBe("no embedding model could be loaded");
    expect((await index.search("tiny hardware", 3)).map((h) => h.passage.id)).toEqual([]);
    expect((await index.search("washer thickness", 3))[0].passage.id).toBe("P3");
  });

  it("adds embedding similarity when a model is available, fused with BM25", async () => {
    const progress: number[] = [];
    const index = await buildPassageIndex(PASSAGES, { similarity: toy, batchSize: 2, onProgress: (done) => progress.push(done) });
    expect(index.mode).toBe("bm25+embeddings");
    expect(index.note).toBe("toy-embedder");
    expect(progress).toEqual([2, 3]);
    const hits = await index.search("tiny hardware", 3);
    expect(hits[0]).toMatchObject({ passage: { id: "P2" }, denseRank: 1 });
    expect(hits[0].bm25Rank).toBeUndefined();
  });

  it("keeps to BM25 when there are more passages than it embeds", async () => {
    const index = await buildPassageIndex(PASSAGES, { similarity: toy, maxEmbedded: 2 });
    expect(index.mode).toBe("bm25");
    expect(index.note).toMatch(/more than the 2 embedded/);
  });
});
