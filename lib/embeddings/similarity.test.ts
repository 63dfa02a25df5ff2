// Choosing the similarity: env config, embedding cosine, fallback to lexical with a readable warning, memoisation.
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { MockEmbeddingModelV4 } from "ai/test";
import { isAppError } from "@/lib/errors";
import { createSimilarity, createSimilarityCache, embeddingConfigFromEnv, embeddingSimilarity, cosine } from "./similarity";
import type { Embedder } from "./types";

// hand-made 3-d "embeddings": axis 0 = birth, 1 = acting, 2 = founding
const TABLE: Record<string, number[]> = {
  born: [1, 0, 0],
  "birth date": [0.9, 0.1, 0],
  starring: [0, 1, 0],
  played: [0.1, 0.95, 0],
  founder: [0, 0, 1],
};
function tableEmbedder(kind: Embedder["kind"] = "transformers", name = "fake/table-model"): Embedder & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    kind,
    name,
    calls,
    async embed(texts) {
      calls.push(texts);
      return texts.map((t) => {
        const v = TABLE[t] ?? [0.3, 0.3, 0.3];
        const n = Math.hypot(...v);
        return v.map((x) => x / n);
      });
    },
  };
}

const missingDir = path.join(os.tmpdir(), `no-such-models-${process.pid}`);

describe("embeddingConfigFromEnv", () => {
  it("defaults to auto, no remote downloads", () => {
    expect(embeddingConfigFromEnv({})).toEqual({ kind: "auto", allowRemote: false });
  });

  it("reads model, path and remote flag", () => {
    const cfg = embeddingConfigFromEnv({ EMBEDDING_MODEL: "Xenova/all-MiniLM-L6-v2", EMBEDDING_MODEL_PATH: "/models", EMBEDDING_ALLOW_REMOTE: "TRUE", EMBEDDING_DTYPE: "q8" });
    expect(cfg).toEqual({ kind: "auto", model: "Xenova/all-MiniLM-L6-v2", localModelPath: "/models", allowRemote: true, dtype: "q8" });
    expect(embeddingConfigFromEnv({ EMBEDDING_ALLOW_REMOTE: "0", EMBEDDING_KIND: "lexical" })).toMatchObject({ kind: "lexical", allowRemote: false });
  });

  it("rejects a remote flag that is not a boolean, naming the variable", () => {
    const err = (() => {
      try {
        embeddingConfigFromEnv({ EMBEDDING_ALLOW_REMOTE: "maybe" });
      } catch (e) {
        return e;
      }
    })();
    expect(isAppError(err, "bad_request")).toBe(true);
    expect((err as Error).message).toContain("EMBEDDING_ALLOW_REMOTE");
  });
});

describe("embeddingSimilarity", () => {
  it("scores candidates by cosine, in order, with one embed call", async () => {
    const embedder = tableEmbedder();
    const sim = embeddingSimilarity(embedder);
    const [birth, starring, founder] = await sim.scores("born", ["birth date", "starring", "founder"]);
    expect(birth).toBeGreaterThan(0.9);
    expect(starring).toBeCloseTo(0, 6);
    expect(founder).toBeCloseTo(0, 6);
    expect(embedder.calls).toEqual([["born", "birth date", "starring", "founder"]]);
    expect(await sim.scores("born", [])).toEqual([]);
    expect(embedder.calls).toHaveLength(1);
    expect(sim.kind).toBe("transformers");
    expect(sim.warning).toBeUndefined();
  });

  it("cosine handles zero vectors and stays in [-1, 1]", () => {
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([1, 0], [-1, 0])).toBe(-1);
    expect(cosine([0.1, 0.2], [0.2, 0.4])).toBeCloseTo(1, 12);
  });
});

describe("createSimilarity", () => {
  it("falls back to lexical when the model folder is missing, saying which model and where", async () => {
    const sim = await createSimilarity({ kind: "auto", model: "Xenova/all-MiniLM-L6-v2", localModelPath: missingDir });
    expect(sim.kind).toBe("lexical");
    expect(sim.warning).toContain('"Xenova/all-MiniLM-L6-v2"');
    expect(sim.warning).toContain(path.join(missingDir, "Xenova", "all-MiniLM-L6-v2"));
    expect(sim.warning).toMatch(/remote models are disabled/);
    expect(sim.warning).toMatch(/lexical/);
    // and the fallback still ranks sensibly
    const [birth, starring] = await sim.scores("born", ["birth date", "starring"]);
    expect(birth).toBeGreaterThan(starring + 0.3);
  });

  it("falls back with a warning when no local model path is configured at all", async () => {
    const sim = await createSimilarity({});
    expect(sim.kind).toBe("lexical");
    expect(sim.warning).toMatch(/Xenova\/all-MiniLM-L6-v2/);
    expect(sim.warning).toMatch(/no local model path configured/);
  });

  it("uses the lexical similarity without a warning when asked for it", async () => {
    const sim = await createSimilarity({ kind: "lexical" });
    expect(sim.kind).toBe("lexical");
    expect(sim.warning).toBeUndefined();
  });

  it("uses the transformers embedder when it loads", async () => {
    const embedder = tableEmbedder();
    const seen: unknown[] = [];
    const sim = await createSimilarity(
      { kind: "transformers", model: "my/model", localModelPath: "/models" },
      { loadTransformers: async (o) => (seen.push(o), embedder) },
    );
    expect(seen).toEqual([{ model: "my/model", localModelPath: "/models", allowRemote: false }]);
    expect(sim.kind).toBe("transformers");
    expect(sim.name).toBe("fake/table-model");
    expect(sim.warning).toBeUndefined();
    const [starring, birth] = await sim.scores("played", ["starring", "birth date"]);
    expect(starring).toBeGreaterThan(birth);
  });

  it("uses a provider embedding model, and falls back with its error when it fails", async () => {
    const ok = new MockEmbeddingModelV4({
      provider: "mock",
      modelId: "ok-embed",
      maxEmbeddingsPerCall: 100,
      doEmbed: async ({ values }) => ({ embeddings: values.map((v) => [v.length, 1]), warnings: [] }),
    });
    const sim = await createSimilarity({ kind: "provider" }, { providerModel: ok });
    expect(sim.kind).toBe("provider");
    expect(sim.name).toBe("mock/ok-embed");

    const broken = new MockEmbeddingModelV4({ provider: "mock", modelId: "broken-embed", doEmbed: async () => Promise.reject(new Error("connection refused")) });
    const fallback = await createSimilarity({ kind: "provider" }, { providerModel: broken, providerTimeoutMs: 2000 });
    expect(fallback.kind).toBe("lexical");
    expect(fallback.warning).toContain("mock/broken-embed");
    expect(fallback.warning).toContain("connection refused");

    const none = await createSimilarity({ kind: "provider" });
    expect(none.kind).toBe("lexical");
    expect(none.warning).toMatch(/No provider embedding model/);
  });

  it("in auto mode tries the local model first, then the provider", async () => {
    const ok = new MockEmbeddingModelV4({ provider: "mock", modelId: "ok-embed", maxEmbeddingsPerCall: 100, doEmbed: async ({ values }) => ({ embeddings: values.map(() => [1, 0]), warnings: [] }) });
    const sim = await createSimilarity({ localModelPath: missingDir }, { providerModel: ok });
    expect(sim.kind).toBe("provider");
    expect(sim.warning).toMatch(/could not be loaded.*Using mock\/ok-embed instead/);
    const quiet = await createSimilarity({}, { providerModel: ok });
    expect(quiet.kind).toBe("provider");
    expect(quiet.warning).toBeUndefined();
  });

  it("memoises per config through an explicit cache, and does not cache aborted loads", async () => {
    let loads = 0;
    const loadTransformers = async () => (loads++, tableEmbedder());
    const cache = createSimilarityCache();
    const a = await createSimilarity({ kind: "transformers", model: "m1" }, { cache, loadTransformers });
    const b = await createSimilarity({ kind: "transformers", model: "m1" }, { cache, loadTransformers });
    expect(a).toBe(b);
    expect(loads).toBe(1);
    await createSimilarity({ kind: "transformers", model: "m2" }, { cache, loadTransformers });
    expect(loads).toBe(2);
    await createSimilarity({ kind: "transformers", model: "m1" }, { loadTransformers });
    expect(loads).toBe(3);

    const controller = new AbortController();
    controller.abort();
    const failing = async () => {
      throw new Error("aborted");
    };
    await expect(createSimilarity({ kind: "transformers", model: "m3" }, { cache, loadTransformers: failing, signal: controller.signal })).rejects.toThrow();
    await new Promise((r) => setTimeout(r, 0));
    const retried = await createSimilarity({ kind: "transformers", model: "m3" }, { cache, loadTransformers });
    expect(retried.kind).toBe("transformers");
  });
});
