// One call from config to a ready gateway: resolver from the config, the config's defaults, and its key as a secret to scrub.
import type { LlmConfig } from "@/lib/llm/config";
import { createLlmGateway, type LlmGatewayOptions } from "@/lib/llm/gateway";
import { createModelResolver, type ModelResolverOptions } from "@/lib/llm/providers";
import type { LlmGateway } from "@/lib/llm/types";

export type CreateLlmOptions = ModelResolverOptions & Omit<LlmGatewayOptions, "resolve" | "defaults">;

export function createLlmFromConfig(config: LlmConfig, options: CreateLlmOptions = {}): LlmGateway {
  const { mock, fetch, secrets = [], ...gatewayOptions } = options;
  return createLlmGateway({
    ...gatewayOptions,
    resolve: createModelResolver(config, { mock, fetch }),
    defaults: { timeoutMs: config.timeoutMs, temperature: config.temperature, maxOutputTokens: config.maxOutputTokens },
    secrets: config.apiKey ? [...secrets, config.apiKey] : secrets,
  });
}
