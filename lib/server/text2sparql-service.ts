// The app's TEXT2SPARQL service from env, and the one HTTP handler behind /api/text2sparql and /text2sparql.
import "server-only";
import { createSimilarity, embeddingConfigFromEnv } from "@/lib/embeddings/similarity";
import { getStrategy } from "@/lib/pipeline/registry";
import { getEvalRunStore } from "./eval-runs";
import { clientAddress } from "./auth";
import { checkBearer, callerSession } from "./machine-auth";
import { json } from "./http";
import { getText2SparqlLimiter } from "./limiters";
import { getServices, createLlmForTurn } from "./services";
import { logError, safeError } from "./security";
import { createText2Sparql, validateParams, type Text2Sparql } from "./text2sparql";
import { budgetFromEnv, chooseStrategy, datasetKgKey, parseDatasets, TOKEN_VAR } from "./text2sparql-config";
import { evidenceRuns } from "./default-strategy";

const cache = globalThis as unknown as { __chattyKgText2Sparql?: { key: string; service: Text2Sparql } };

/** The service for the current env (rebuilt when TEXT2SPARQL_DATASETS or the budget change, e.g. between tests). */
export function getText2Sparql(env: Record<string, string | undefined> = process.env): Text2Sparql {
  const key = JSON.stringify([env.TEXT2SPARQL_DATASETS ?? "", env.TEXT2SPARQL_BUDGET_MS ?? ""]);
  if (cache.__chattyKgText2Sparql?.key === key) return cache.__chattyKgText2Sparql.service;
  void cache.__chattyKgText2Sparql?.service.close();
  const { registry, similarityCache } = getServices();
  const service = createText2Sparql({
    datasets: parseDatasets(env.TEXT2SPARQL_DATASETS),
    defaultKg: () => registry.getKg(registry.defaultKgId, registry.defaultKgId),
    llm: () => createLlmForTurn(undefined).gateway,
    similarity: (signal) => createSimilarity(embeddingConfigFromEnv(), { cache: similarityCache, signal }),
    getStrategy,
    chooseStrategy: (dataset) => chooseStrategy(process.env, () => evidenceRuns(getEvalRunStore()), datasetKgKey(dataset)),
    budgetMs: budgetFromEnv(env),
  });
  cache.__chattyKgText2Sparql = { key, service };
  return service;
}

/** An error as FastAPI's HTTPException writes it ({detail}), with the project's stable code beside it. */
function errorBody(e: unknown): Response {
  const err = safeError(e);
  if (err.code === "internal") logError("[chatty-kg] text2sparql:", e);
  const retryAfterS = err.details?.retryAfterS;
  return json({ detail: err.message, error: err.toJSON() }, { status: err.status, headers: typeof retryAfterS === "number" ? { "retry-after": String(retryAfterS) } : undefined });
}

/** Whose rate limit a request counts against: the token's for a token client, else the client address's. */
export function rateKey(request: Request): string {
  return checkBearer(request.headers.get("authorization"), TOKEN_VAR).kind === "valid" ? `token:${TOKEN_VAR}` : `address:${clientAddress(request.headers)}`;
}

/**
 * GET ?question=…&dataset=…: sign-in (or TEXT2SPARQL_TOKEN), then FastAPI-style parameter checks (422), the dataset
 * (404), the rate limit (per token, else per address; 429 with Retry-After), and the run. The answer is exactly
 * {dataset, question, query}; every refusal is JSON with FastAPI's `detail`.
 */
export async function handleText2Sparql(request: Request): Promise<Response> {
  try {
    await callerSession(request, TOKEN_VAR);
    const params = validateParams(new URL(request.url).searchParams);
    if (!params.ok) return json(params.body, { status: 422 });
    const service = getText2Sparql();
    service.datasetOf(params.dataset);
    // counted once the request is known to be a run: a typo in the dataset does not use up the limit
    await getText2SparqlLimiter().acquire(rateKey(request));
    const { response } = await service.answer(params.question, params.dataset, request.signal);
    return json(response);
  } catch (e) {
    return errorBody(e);
  }
}
