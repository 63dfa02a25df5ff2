// The one place that imports provider SDKs: turns an LlmConfig into a per-role ModelResolver.
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { LanguageModel } from "ai";
import { AppError } from "@/lib/errors";
import { missingFor, type LlmConfig } from "@/lib/llm/config";
import type { AgentRole, ModelResolver, ResolvedModel } from "@/lib/llm/types";

export interface ModelResolverOptions {
  /** what the "mock" provider resolves to: one model for all roles, or a resolver (e.g. createScriptedLlm().resolve) */
  mock?: LanguageModel | ModelResolver;
  /** custom fetch for the HTTP providers (tests, proxies) */
  fetch?: typeof globalThis.fetch;
}

/** Model id for a role: its override, else the config's default model. */
export function modelIdForRole(config: Pick<LlmConfig, "model" | "roleModels">, role: AgentRole): string {
  return config.roleModels?.[role] ?? config.model;
}

function isResolver(m: LanguageModel | ModelResolver): m is ModelResolver {
  return typeof m === "function";
}

/** Builds the resolver; throws llm_not_configured when the config cannot work (missing key, base URL, mock). */
export function createModelResolver(config: LlmConfig, options: ModelResolverOptions = {}): ModelResolver {
  const missing = missingFor(config);
  if (missing.length > 0) {
    throw new AppError("llm_not_configured", `The LLM provider "${config.provider}" is not fully configured: set ${missing.join(" and ")}.`, {
      details: { provider: config.provider, missing },
    });
  }
  const { provider } = config;
  let make: (modelId: string) => LanguageModel;
  if (provider === "openai") {
    // .chat(): the Chat Completions API, which every OpenAI-compatible server also speaks (the default is /responses).
    const openai = createOpenAI({ apiKey: config.apiKey, baseURL: config.baseURL, fetch: options.fetch });
    make = (id) => openai.chat(id);
  } else if (provider === "google") {
    const google = createGoogleGenerativeAI({ apiKey: config.apiKey, baseURL: config.baseURL, fetch: options.fetch });
    make = (id) => google(id);
  } else if (provider === "openai-compatible") {
    const compatible = createOpenAICompatible({
      name: "openai-compatible",
      baseURL: config.baseURL!,
      apiKey: config.apiKey,
      includeUsage: true, // token counts in streamed replies too
      fetch: options.fetch,
    });
    make = (id) => compatible.chatModel(id);
  } else {
    const mock = options.mock;
    if (!mock) {
      throw new AppError("llm_not_configured", 'LLM_PROVIDER is "mock" but no mock model was supplied (the mock provider is for tests).');
    }
    if (isResolver(mock)) return mock;
    return (role) => ({ provider: "mock", modelId: modelIdForRole(config, role), model: mock });
  }
  const cache = new Map<string, ResolvedModel>();
  return (role) => {
    const modelId = modelIdForRole(config, role);
    let resolved = cache.get(modelId);
    if (!resolved) {
      resolved = { provider, modelId, model: make(modelId) };
      cache.set(modelId, resolved);
    }
    return resolved;
  };
}
