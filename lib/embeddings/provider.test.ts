// Provider embedder over an AI SDK embedding model: batching, normalisation, cache, timeout, abort and errors.
import { describe, expect, it } from "vitest";
import { MockEmbeddingModelV4 } from "ai/test";
import { isAppError } from "@/lib/errors";
import { createProviderEmbedder } from "./provider";

// deterministic toy embedding: counts of a few letters, unnormalised on purpose
const toyVector = (text: string) => ["a", "e", "i", "o", "r"].map((ch) => text.split(ch).length - 1 + 0.5);

// like a real HTTP call: rejects when the signal fires, or at once if it already has
const hangUntilAborted = (signal?: AbortSignal) =>
  new Promise<never>((_, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    signal?.addEventListener("abort", () => reject(signal.reason), { once: true });
  });

function toyModel(extra: Partial<ConstructorParameters<typeof MockEmbeddingModelV4>[0]> = {}) {
  return new MockEmbeddingModelV4({
    provider: "mock",
    modelId: "toy-embed",
    maxEmbeddingsPerCall: 100,
    doEmbed: async ({ values }) => ({ embeddings: values.map(toyVector), warnings: [] }),
    ...extra,
  });
}

describe("provider embedder", () => {
  it("returns one L2-normalised vector per text, in order, named after the model", async () => {
    const model = toyModel();
    const embedder = createProviderEmbedder({ model });
    const out = await embedder.embed(["birth date", "starring", "founder"]);
    expect(embedder.kind).toBe("provider");
    expect(embedder.name).toBe("mock/toy-embed");
    expect(out).toHaveLength(3);
    for (const v of out) expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    const expected = toyVector("starring");
    const norm = Math.hypot(...expected);
    expect(out[1]).toEqual(expected.map((x) => x / norm));
    expect(model.doEmbedCalls).toHaveLength(1);
    expect(model.doEmbedCalls[0].values).toEqual(["birth date", "starring", "founder"]);
  });

  it("asks the model only for texts it has not embedded yet", async () => {
    const model = toyModel();
    const embedder = createProviderEmbedder({ model });
    const first = await embedder.embed(["born", "birth date"]);
    const second = await embedder.embed(["birth date", "born", "starring", "starring"]);
    expect(model.doEmbedCalls.map((c) => c.values)).toEqual([["born", "birth date"], ["starring"]]);
    expect(second[0]).toEqual(first[1]);
    expect(second[2]).toEqual(second[3]);
  });

  it("wraps provider failures as embedding_unavailable with the model name", async () => {
    const model = toyModel({ doEmbed: async () => Promise.reject(new Error("401 invalid api key")) });
    const err = await createProviderEmbedder({ model, maxRetries: 0 }).embed(["x"]).catch((e) => e);
    expect(isAppError(err, "embedding_unavailable")).toBe(true);
    expect(err.message).toContain("mock/toy-embed");
    expect(err.message).toContain("401 invalid api key");
  });

  it("gives up after the timeout", async () => {
    const model = toyModel({
      doEmbed: ({ abortSignal }) => hangUntilAborted(abortSignal),
    });
    const t0 = Date.now();
    const err = await createProviderEmbedder({ model, timeoutMs: 100, maxRetries: 0 }).embed(["x"]).catch((e) => e);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(isAppError(err, "embedding_unavailable")).toBe(true);
    expect(err.message).toMatch(/within 100 ms/);
  });

  it("reports a caller's abort as aborted", async () => {
    const controller = new AbortController();
    const model = toyModel({
      doEmbed: ({ abortSignal }) => hangUntilAborted(abortSignal),
    });
    const pending = createProviderEmbedder({ model, signal: controller.signal, maxRetries: 0 }).embed(["x"]).catch((e) => e);
    controller.abort();
    expect(isAppError(await pending, "aborted")).toBe(true);
  });
});
