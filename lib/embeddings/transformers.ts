// Local sentence embeddings with @huggingface/transformers (ONNX on CPU): feature extraction, mean pooling, L2 norm.
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { embedWithCache, LruCache } from "./lru";
import type { Embedder } from "./types";

type TransformersModule = typeof import("@huggingface/transformers");

export const TRANSFORMERS_DTYPES = ["auto", "fp32", "fp16", "q8", "int8", "uint8", "q4", "bnb4", "q4f16"] as const;

export const transformersOptionsSchema = z.object({
  /** Hub id, e.g. "Xenova/all-MiniLM-L6-v2"; also the sub-folder looked up under localModelPath */
  model: z.string().min(1),
  /** a folder that holds model folders (<path>/<model>/config.json) or the model folder itself (<path>/config.json) */
  localModelPath: z.string().min(1).optional(),
  /** download from the Hugging Face Hub when the model is not found locally */
  allowRemote: z.boolean().default(false),
  /** where downloaded files are cached */
  cacheDir: z.string().min(1).optional(),
  /** ONNX weights variant: fp32 → onnx/model.onnx, q8 → onnx/model_quantized.onnx */
  dtype: z.enum(TRANSFORMERS_DTYPES).default("fp32"),
  /** per-request timeout for Hub downloads */
  fetchTimeoutMs: z.number().int().positive().default(60_000),
  /** embeddings kept per text */
  cacheSize: z.number().int().nonnegative().default(2000),
});
export type TransformersOptions = z.input<typeof transformersOptionsSchema>;

export interface TransformersDeps {
  /** defaults to a dynamic import, so onnxruntime loads only when a model is wanted */
  importTransformers?: () => Promise<TransformersModule>;
  /** cancels a load in progress (e.g. the request that triggered it went away) */
  signal?: AbortSignal;
}

export interface TransformersEmbedder extends Embedder {
  readonly kind: "transformers";
  readonly dims: number;
  /** the folder the model was loaded from, or the Hub id when downloaded */
  readonly source: string;
  readonly loadMs: number;
}

/** Where a model would be read from on disk: the model folder itself, or <root>/<model>. */
export function resolveModelFolder(model: string, localModelPath?: string): string | undefined {
  if (!localModelPath) return undefined;
  const root = path.resolve(localModelPath);
  if (fs.existsSync(path.join(root, "config.json"))) return root;
  return path.join(root, ...model.split("/"));
}

/** A human sentence for why loading failed (the Hub unreachable, a file missing, …). */
function describeFailure(e: unknown): string {
  const err = e instanceof Error ? e : new Error(String(e));
  const cause = err.cause instanceof Error ? err.cause : undefined;
  const code = (cause as { code?: string } | undefined)?.code ?? (err as { code?: string }).code;
  if (err.name === "TimeoutError" || cause?.name === "TimeoutError") return `the download timed out (${err.message})`;
  if (err.message === "fetch failed" || (code && /ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN/.test(code))) {
    return `the Hugging Face Hub is unreachable (${cause?.message ?? err.message})`;
  }
  return err.message;
}

/** Loads a feature-extraction pipeline and wraps it as an Embedder; throws AppError("embedding_unavailable"). */
export async function loadTransformersEmbedder(options: TransformersOptions, deps: TransformersDeps = {}): Promise<TransformersEmbedder> {
  const opts = transformersOptionsSchema.parse(options);
  const folder = resolveModelFolder(opts.model, opts.localModelPath);
  const hasLocal = folder !== undefined && fs.existsSync(path.join(folder, "config.json"));
  const tried = folder ?? "(no local model path configured)";
  const fail = (reason: string, cause?: unknown) =>
    new AppError("embedding_unavailable", `Embedding model "${opts.model}" could not be loaded: ${reason.replace(/\.+$/, "")}.`, {
      cause,
      details: { model: opts.model, path: folder, allowRemote: opts.allowRemote },
    });

  if (!hasLocal && !opts.allowRemote) {
    throw fail(`no model folder (config.json) was found at ${tried}, and remote models are disabled (EMBEDDING_ALLOW_REMOTE)`);
  }

  const started = performance.now();
  let lib: TransformersModule;
  try {
    lib = await (deps.importTransformers ?? (() => import("@huggingface/transformers")))();
  } catch (e) {
    throw fail(`the @huggingface/transformers runtime did not load (${describeFailure(e)})`, e);
  }

  const { env, pipeline } = lib;
  // why: Hub downloads go through env.fetch; give each request a timeout and honour the caller's abort
  const baseFetch = globalThis.fetch;
  env.fetch = (input: string | URL, init?: RequestInit) => {
    const signals = [AbortSignal.timeout(opts.fetchTimeoutMs), ...(deps.signal ? [deps.signal] : []), ...(init?.signal ? [init.signal] : [])];
    return baseFetch(input, { ...init, signal: AbortSignal.any(signals) });
  };

  // why: an absolute folder path is not a Hub id, so the library reads it as is (no global localModelPath needed)
  const source = hasLocal ? (folder as string) : opts.model;
  let extractor: Awaited<ReturnType<typeof pipeline<"feature-extraction">>>;
  try {
    const loading = pipeline("feature-extraction", source, {
      dtype: opts.dtype,
      local_files_only: hasLocal || !opts.allowRemote,
      ...(opts.cacheDir ? { cache_dir: path.resolve(opts.cacheDir) } : {}),
    });
    extractor = await (deps.signal ? raceAbort(loading, deps.signal) : loading);
  } catch (e) {
    if (deps.signal?.aborted) throw new AppError("aborted", `Loading embedding model "${opts.model}" was cancelled.`, { cause: e });
    const where = hasLocal ? `from ${folder}` : `from the Hugging Face Hub (local folder ${tried} not found)`;
    throw fail(`loading ${where} failed: ${describeFailure(e)}`, e);
  }

  const run = async (texts: string[]): Promise<number[][]> => {
    const out = await extractor(texts, { pooling: "mean", normalize: true });
    return out.tolist() as number[][];
  };
  let dims: number;
  try {
    dims = (await run(["dimension probe"]))[0].length;
  } catch (e) {
    throw fail(`the model loaded from ${source} but failed to embed a test sentence: ${describeFailure(e)}`, e);
  }

  const cache = new LruCache<string, number[]>(opts.cacheSize);
  return {
    kind: "transformers",
    name: opts.model,
    dims,
    source,
    loadMs: Math.round(performance.now() - started),
    async embed(texts: string[]): Promise<number[][]> {
      try {
        return await embedWithCache(texts, cache, run);
      } catch (e) {
        throw new AppError("embedding_unavailable", `Embedding with "${opts.model}" failed: ${describeFailure(e)}.`, { cause: e });
      }
    },
  };
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
