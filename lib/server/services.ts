// The app's process-wide services (KG registry, similarity, LLM factory, turn runner), cached on globalThis for dev HMR.
import "server-only";
import path from "node:path";
import { AppError } from "@/lib/errors";
import type { LlmOverride } from "@/lib/api/contract";
import { getQueries } from "@/lib/db/queries";
import { createSimilarity, createSimilarityCache, embeddingConfigFromEnv, type SimilarityCache } from "@/lib/embeddings/similarity";
import { llmConfigFromEnv, notConfiguredError, type Env, type LlmConfig } from "@/lib/llm/config";
import { checkRequestBaseUrl } from "@/lib/llm/base-url-policy";
import { createLlmFromConfig } from "@/lib/llm/create";
import { startSpareWorker } from "@/lib/kg/embedded/embedded-kg";
import { getStrategy } from "@/lib/pipeline/registry";
import { createKgRegistry, type KgRegistry } from "./kg-registry";
import { createTurnRunner, type TurnLlm, type TurnRunner } from "./turn-runner";
import { defaultStrategiesFor, DOCUMENTED_DEFAULT } from "./default-strategy";
import { getEvalRunStore } from "./eval-runs";
import type { OnboardingService } from "@/lib/kg/onboarding/service";
import { createAppOnboarding, onboardingAuto } from "./onboarding";

function envProvider(env: Env): LlmConfig["provider"] | undefined {
  try {
    return llmConfigFromEnv(env)?.provider;
  } catch {
    return undefined;
  }
}

/**
 * The LLM config for a turn: env vars, with the request's provider/model/baseURL when it sent them.
 * Keys only ever come from env, and are never sent where the request alone decided: a request baseURL that differs
 * from LLM_BASE_URL gets no key, and a request switching provider does not get LLM_API_KEY (meant for the env's one).
 * A request's base URL must be on LLM_ALLOWED_BASE_URLS (url_forbidden otherwise).
 */
export function resolveLlmConfig(override: LlmOverride | undefined, env: Env = process.env): LlmConfig {
  if (!override) {
    const config = llmConfigFromEnv(env);
    if (!config) throw notConfiguredError();
    return config;
  }
  if (override.baseURL && override.provider !== "openai-compatible") {
    throw new AppError("bad_request", "A base URL can only be given for the openai-compatible provider.");
  }
  const merged: Env = { ...env, LLM_PROVIDER: override.provider, LLM_MODEL: override.model };
  // the request picked one model for every role
  for (const key of Object.keys(merged)) if (key.startsWith("LLM_MODEL_")) delete merged[key];
  if (override.provider !== envProvider(env)) delete merged.LLM_API_KEY;
  if (override.provider !== "openai-compatible") delete merged.LLM_BASE_URL;
  else if (override.baseURL) {
    checkRequestBaseUrl(override.baseURL, env);
    if (override.baseURL !== env.LLM_BASE_URL?.trim()) delete merged.LLM_API_KEY;
    merged.LLM_BASE_URL = override.baseURL;
  }
  const config = llmConfigFromEnv(merged);
  if (!config) throw notConfiguredError();
  return config;
}

export function createLlmForTurn(override: LlmOverride | undefined, env: Env = process.env): TurnLlm {
  const config = resolveLlmConfig(override, env);
  return { gateway: createLlmFromConfig(config), provider: config.provider, model: config.model };
}

interface Services {
  registry: KgRegistry;
  similarityCache: SimilarityCache;
  runner: TurnRunner;
  /** KG onboarding (lib/kg/onboarding): profile, generated examples, notes per KG */
  onboarding: OnboardingService;
}

const cache = globalThis as unknown as { __chattyKgServices?: Services };

/** The services for this process (one KG registry, one similarity cache). */
export function getServices(): Services {
  if (cache.__chattyKgServices) return cache.__chattyKgServices;
  const queries = getQueries();
  // one warmed-up worker waits for the next upload (a cold worker loads a small file ~3x slower)
  // the registry's hook needs the service, the service needs the registry
  const late: { onboarding?: OnboardingService } = {};
  const auto = onboardingAuto();
  const registry = createKgRegistry({
    queries,
    rootDir: process.cwd(),
    dataDir: path.resolve(".data"),
    startSpareWorker,
    // a KG added is prepared in the background; chatting never waits for it
    onAdded: (sessionId, item) => {
      if (auto.added) void late.onboarding?.start(item.id, { sessionId, trigger: "added" }).catch((e: unknown) => console.error(`onboarding of ${item.id} did not start: ${e instanceof Error ? e.message : String(e)}`));
    },
  });
  const onboarding = createAppOnboarding({ registry, queries });
  late.onboarding = onboarding;
  const similarityCache = createSimilarityCache();
  const runner = createTurnRunner({
    queries,
    registry,
    getStrategy,
    createLlm: (override) => createLlmForTurn(override),
    similarity: (signal) => createSimilarity(embeddingConfigFromEnv(), { cache: similarityCache, signal }),
    defaultStrategy: async (sessionId, kgId) => {
      const kg = (await registry.list(sessionId)).find((k) => k.id === kgId);
      return kg ? defaultStrategiesFor([kg], registry.defaultKgId, getEvalRunStore())[0].defaultStrategy.strategy : DOCUMENTED_DEFAULT;
    },
  });
  cache.__chattyKgServices = { registry, similarityCache, runner, onboarding };
  // the default KG is prepared at start (a finished job for the same content is kept as it is)
  if (auto.default) void onboarding.start(registry.defaultKgId, { trigger: "default" }).catch((e: unknown) => console.error(`onboarding of the default KG did not start: ${e instanceof Error ? e.message : String(e)}`));
  return cache.__chattyKgServices;
}
