// Embedder over an AI SDK embedding model (OpenAI, Google, OpenAI-compatible…), with a timeout, abort and a per-text cache.
import { embedMany, type EmbeddingModel } from "ai";
import { AppError } from "@/lib/errors";
import { embedWithCache, LruCache } from "./lru";
import type { Embedder } from "./types";

export interface ProviderEmbedderOptions {
  model: EmbeddingModel;
  /** shown in the derivation; defaults to "<provider>/<modelId>" */
  name?: string;
  /** per embedMany call, retries included */
  timeoutMs?: number;
  maxRetries?: number;
  /** embeddings kept per text */
  cacheSize?: number;
  /** cancels calls in flight (e.g. the HTTP request was closed) */
  signal?: AbortSignal;
}

export function modelLabel(model: EmbeddingModel): string {
  return typeof model === "string" ? model : `${model.provider}/${model.modelId}`;
}

function normalise(v: number[]): number[] {
  let sum = 0;
  for (const x of v) sum += x * x;
  const norm = Math.sqrt(sum);
  return norm === 0 ? v.slice() : v.map((x) => x / norm);
}

export function createProviderEmbedder(options: ProviderEmbedderOptions): Embedder {
  const name = options.name ?? modelLabel(options.model);
  const timeoutMs = options.timeoutMs ?? 20_000;
  const cache = new LruCache<string, number[]>(options.cacheSize ?? 2000);

  const call = async (values: string[]): Promise<number[][]> => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = options.signal ? AbortSignal.any([timeout, options.signal]) : timeout;
    try {
      const { embeddings } = await embedMany({ model: options.model, values, abortSignal: signal, maxRetries: options.maxRetries ?? 1 });
      return embeddings.map(normalise);
    } catch (e) {
      if (options.signal?.aborted) throw new AppError("aborted", `Embedding with "${name}" was cancelled.`, { cause: e });
      if (timeout.aborted) throw new AppError("embedding_unavailable", `Embedding model "${name}" did not answer within ${timeoutMs} ms.`, { cause: e });
      const reason = e instanceof Error ? e.message : String(e);
      throw new AppError("embedding_unavailable", `Embedding model "${name}" failed: ${reason}`, { cause: e, details: { model: name } });
    }
  };

  return {
    kind: "provider",
    name,
    embed: (texts) => embedWithCache(texts, cache, call),
  };
}
