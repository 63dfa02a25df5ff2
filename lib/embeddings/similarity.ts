// Picks the similarity used for relation linking: an embedding model when one loads, else the lexical fallback (with a warning).
import type { EmbeddingModel } from "ai";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { createLexicalSimilarity } from "./lexical";
import { createProviderEmbedder } from "./provider";
import { loadTransformersEmbedder, TRANSFORMERS_DTYPES, type TransformersOptions } from "./transformers";
import type { Embedder, Similarity } from "./types";

export const DEFAULT_EMBEDDING_MODEL = "Xenova/all-MiniLM-L6-v2";

export const embeddingConfigSchema = z.object({
  kind: z.enum(["auto", "transformers", "provider", "lexical"]).default("auto"),
  /** Hub id of a transformers.js model (defaults to Xenova/all-MiniLM-L6-v2) */
  model: z.string().min(1).optional(),
  /** folder holding <model>/ or the model folder itself */
  localModelPath: z.string().min(1).optional(),
  allowRemote: z.boolean().default(false),
  dtype: z.enum(TRANSFORMERS_DTYPES).optional(),
});
export type EmbeddingConfig = z.infer<typeof embeddingConfigSchema>;

const boolFromEnv = z
  .string()
  .trim()
  .toLowerCase()
  .pipe(z.enum(["", "1", "0", "true", "false", "yes", "no", "on", "off"]))
  .transform((s) => ["1", "true", "yes", "on"].includes(s));

/** Reads EMBEDDING_KIND, EMBEDDING_MODEL, EMBEDDING_MODEL_PATH, EMBEDDING_ALLOW_REMOTE, EMBEDDING_DTYPE. */
export function embeddingConfigFromEnv(env: Record<string, string | undefined> = process.env): EmbeddingConfig {
  const blank = (v: string | undefined) => (v === undefined || v.trim() === "" ? undefined : v.trim());
  const allow = boolFromEnv.safeParse(env.EMBEDDING_ALLOW_REMOTE ?? "");
  if (!allow.success) {
    throw new AppError("bad_request", `EMBEDDING_ALLOW_REMOTE must be true or false, got "${env.EMBEDDING_ALLOW_REMOTE}".`, {
      where: { source: "EMBEDDING_ALLOW_REMOTE" },
    });
  }
  const parsed = embeddingConfigSchema.safeParse({
    kind: blank(env.EMBEDDING_KIND),
    model: blank(env.EMBEDDING_MODEL),
    localModelPath: blank(env.EMBEDDING_MODEL_PATH),
    allowRemote: allow.data,
    dtype: blank(env.EMBEDDING_DTYPE),
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", `Invalid embedding setting ${issue.path.join(".")}: ${issue.message}`, { where: { source: "env" } });
  }
  return parsed.data;
}

export function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  if (na === 0 || nb === 0) return 0;
  return Math.max(-1, Math.min(1, dot / Math.sqrt(na * nb)));
}

/** Similarity as the cosine between the query's and each candidate's embedding (one embed call per scores call). */
export function embeddingSimilarity(embedder: Embedder, warning?: string): Similarity {
  return {
    kind: embedder.kind,
    name: embedder.name,
    ...(warning ? { warning } : {}),
    async scores(query: string, candidates: string[]): Promise<number[]> {
      if (candidates.length === 0) return [];
      const [q, ...cs] = await embedder.embed([query, ...candidates]);
      return cs.map((c) => cosine(q, c));
    },
    embed: (texts) => embedder.embed(texts),
  };
}

/** Explicit memo of loaded similarities, keyed by config; create one per process (or per test) and pass it in. */
export interface SimilarityCache {
  get(key: string): Promise<Similarity> | undefined;
  set(key: string, value: Promise<Similarity>): void;
  delete(key: string): void;
  clear(): void;
}

export function createSimilarityCache(): SimilarityCache {
  const map = new Map<string, Promise<Similarity>>();
  return {
    get: (key) => map.get(key),
    set: (key, value) => void map.set(key, value),
    delete: (key) => void map.delete(key),
    clear: () => map.clear(),
  };
}

export interface SimilarityDeps {
  cache?: SimilarityCache;
  /** the AI SDK embedding model for kind "provider" (and "auto" when no local model loads) */
  providerModel?: EmbeddingModel;
  providerTimeoutMs?: number;
  /** replaces the transformers.js loader (tests) */
  loadTransformers?: (options: TransformersOptions) => Promise<Embedder>;
  signal?: AbortSignal;
}

function reasonOf(e: unknown): string {
  const msg = e instanceof Error ? e.message : String(e);
  return msg.endsWith(".") ? msg : `${msg}.`;
}

async function build(config: EmbeddingConfig, deps: SimilarityDeps): Promise<Similarity> {
  const lexical = createLexicalSimilarity();
  if (config.kind === "lexical") return lexical;

  const failures: string[] = [];
  const tryTransformers = async (): Promise<Similarity | undefined> => {
    const load = deps.loadTransformers ?? ((o: TransformersOptions) => loadTransformersEmbedder(o, { signal: deps.signal }));
    try {
      const embedder = await load({
        model: config.model ?? DEFAULT_EMBEDDING_MODEL,
        localModelPath: config.localModelPath,
        allowRemote: config.allowRemote,
        ...(config.dtype ? { dtype: config.dtype } : {}),
      });
      return embeddingSimilarity(embedder);
    } catch (e) {
      if (deps.signal?.aborted) throw e;
      failures.push(reasonOf(e));
      return undefined;
    }
  };
  const tryProvider = async (): Promise<Similarity | undefined> => {
    if (!deps.providerModel) {
      failures.push("No provider embedding model is configured.");
      return undefined;
    }
    const embedder = createProviderEmbedder({ model: deps.providerModel, timeoutMs: deps.providerTimeoutMs, signal: deps.signal });
    try {
      // why: a provider model is remote; one probe call tells us now, not in the middle of a question
      await embedder.embed(["relation"]);
      return embeddingSimilarity(embedder);
    } catch (e) {
      if (deps.signal?.aborted) throw e;
      failures.push(reasonOf(e));
      return undefined;
    }
  };

  const order =
    config.kind === "transformers" ? [tryTransformers]
    : config.kind === "provider" ? [tryProvider]
    : deps.providerModel ? [tryTransformers, tryProvider]
    : [tryTransformers];
  for (const attempt of order) {
    const sim = await attempt();
    // why: in auto mode a provider stepping in for an explicitly configured local model is worth a note
    const explicitLocal = config.model !== undefined || config.localModelPath !== undefined;
    if (sim && failures.length > 0 && explicitLocal) return { ...sim, scores: sim.scores, warning: `${failures.join(" ")} Using ${sim.name} instead.` };
    if (sim) return sim;
  }
  return { ...lexical, scores: lexical.scores, warning: `${failures.join(" ")} Using lexical similarity (tokens, stems, char 3-grams) instead.` };
}

function cacheKey(config: EmbeddingConfig, deps: SimilarityDeps): string {
  const provider = deps.providerModel === undefined ? null : typeof deps.providerModel === "string" ? deps.providerModel : `${deps.providerModel.provider}/${deps.providerModel.modelId}`;
  return JSON.stringify([config.kind, config.model ?? null, config.localModelPath ?? null, config.allowRemote, config.dtype ?? null, provider]);
}

/** The preferred similarity for this config, falling back to lexical with `warning` saying which model failed and why. */
export function createSimilarity(config: z.input<typeof embeddingConfigSchema>, deps: SimilarityDeps = {}): Promise<Similarity> {
  const cfg = embeddingConfigSchema.parse(config);
  if (!deps.cache) return build(cfg, deps);
  const key = cacheKey(cfg, deps);
  const hit = deps.cache.get(key);
  if (hit) return hit;
  const pending = build(cfg, deps);
  deps.cache.set(key, pending);
  // why: an aborted load must not poison the cache for the next request
  pending.catch(() => deps.cache?.delete(key));
  return pending;
}
