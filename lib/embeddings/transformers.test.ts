// transformers.js loader against a generated tiny BERT-shaped ONNX model (loads onnxruntime once: keep such tests here).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { writeTinyModel } from "@/scripts/make-tiny-model";
import { createSimilarity } from "./similarity";
import { loadTransformersEmbedder, type TransformersEmbedder } from "./transformers";

let root: string;
let embedder: TransformersEmbedder;
const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i], 0);

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "tiny-models-"));
  writeTinyModel(path.join(root, "local", "tiny-bert"));
  const t0 = performance.now();
  embedder = await loadTransformersEmbedder({ model: "local/tiny-bert", localModelPath: root });
  console.log(`tiny model load (first, includes onnxruntime import): ${Math.round(performance.now() - t0)} ms`);
});

afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe("loadTransformersEmbedder with a local model folder", () => {
  it("embeds texts into normalised vectors of the model's width", async () => {
    expect(embedder.kind).toBe("transformers");
    expect(embedder.name).toBe("local/tiny-bert");
    expect(embedder.dims).toBe(16);
    expect(embedder.source).toBe(path.join(root, "local", "tiny-bert"));
    const vs = await embedder.embed(["born", "birth date", "Starring", "some unknown words"]);
    expect(vs).toHaveLength(4);
    for (const v of vs) {
      expect(v).toHaveLength(16);
      expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    }
  });

  it("gives the same vector for the same text, cached or not", async () => {
    const [a] = await embedder.embed(["founded by"]);
    const [b, c] = await embedder.embed(["founded by", "founded by"]);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    const fresh = await loadTransformersEmbedder({ model: "local/tiny-bert", localModelPath: root, cacheSize: 0 });
    const [d] = await fresh.embed(["founded by"]);
    for (let i = 0; i < a.length; i++) expect(d[i]).toBeCloseTo(a[i], 6);
  });

  it("orders cosine similarities sensibly", async () => {
    const [born, birthDate, starring, played, founded, founder, released, releaseDate] = await embedder.embed([
      "born", "birth date", "starring", "played", "founded", "founder", "released", "release date",
    ]);
    expect(dot(born, birthDate)).toBeGreaterThan(dot(born, starring) + 0.3);
    expect(dot(played, starring)).toBeGreaterThan(dot(played, birthDate) + 0.3);
    expect(dot(founded, founder)).toBeGreaterThan(dot(founded, releaseDate) + 0.3);
    expect(dot(released, releaseDate)).toBeGreaterThan(dot(released, founder) + 0.3);
  });

  it("accepts the model folder itself as the local path, and the q8 weights", async () => {
    const folder = path.join(root, "local", "tiny-bert");
    const direct = await loadTransformersEmbedder({ model: "Xenova/all-MiniLM-L6-v2", localModelPath: folder, dtype: "q8" });
    expect(direct.source).toBe(folder);
    expect(direct.dims).toBe(16);
  });
});

describe("loadTransformersEmbedder errors", () => {
  it("names the model and the folder tried when it is missing and remote models are disabled", async () => {
    const err = await loadTransformersEmbedder({ model: "Xenova/all-MiniLM-L6-v2", localModelPath: root }).catch((e) => e);
    expect(isAppError(err, "embedding_unavailable")).toBe(true);
    expect(err.message).toContain('"Xenova/all-MiniLM-L6-v2"');
    expect(err.message).toContain(path.join(root, "Xenova", "all-MiniLM-L6-v2"));
    expect(err.message).toMatch(/remote models are disabled/);
    expect(err.details).toMatchObject({ model: "Xenova/all-MiniLM-L6-v2", allowRemote: false });
  });

  it("reports a broken model folder (config but no weights) with the library's reason and the path", async () => {
    const broken = path.join(root, "local", "broken");
    fs.mkdirSync(broken, { recursive: true });
    fs.copyFileSync(path.join(root, "local", "tiny-bert", "config.json"), path.join(broken, "config.json"));
    fs.copyFileSync(path.join(root, "local", "tiny-bert", "tokenizer.json"), path.join(broken, "tokenizer.json"));
    fs.copyFileSync(path.join(root, "local", "tiny-bert", "tokenizer_config.json"), path.join(broken, "tokenizer_config.json"));
    const err = await loadTransformersEmbedder({ model: "local/broken", localModelPath: root }).catch((e) => e);
    expect(isAppError(err, "embedding_unavailable")).toBe(true);
    expect(err.message).toContain(broken);
    expect(err.message).toMatch(/model\.onnx|not found/i);
  });

  it("reports a runtime that fails to import", async () => {
    const err = await loadTransformersEmbedder(
      { model: "local/tiny-bert", localModelPath: root },
      { importTransformers: () => Promise.reject(new Error("libonnxruntime.so.1: cannot open shared object file")) },
    ).catch((e) => e);
    expect(isAppError(err, "embedding_unavailable")).toBe(true);
    expect(err.message).toMatch(/@huggingface\/transformers runtime did not load.*libonnxruntime/);
  });
});

describe("createSimilarity with the tiny model", () => {
  it("ranks predicates with the embedding model, without a warning", async () => {
    const sim = await createSimilarity({ model: "local/tiny-bert", localModelPath: root });
    expect(sim.kind).toBe("transformers");
    expect(sim.warning).toBeUndefined();
    const labels = ["starring", "birth date", "founder", "release date"];
    const top = async (q: string) => {
      const s = await sim.scores(q, labels);
      return labels[s.indexOf(Math.max(...s))];
    };
    expect(await top("born")).toBe("birth date");
    expect(await top("played")).toBe("starring");
    expect(await top("founded")).toBe("founder");
    expect(await top("released")).toBe("release date");
  });
});
