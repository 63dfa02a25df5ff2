// What the config strip sets for the next question (KG, pipeline parameters, LLM override), validated from localStorage.
import { z } from "zod";
import { llmOverrideSchema, type LlmOverride } from "@/lib/api/contract";
import { DEFAULT_CONFIG, pipelineConfigSchema, type PipelineConfig, type StrategyId } from "@/lib/pipeline/types";

// In the browser zod must not probe `new Function` for its JIT: under the strict CSP (no 'unsafe-eval') the probe is
// reported as a violation even though zod catches it. This module parses on every chat page, before any other schema.
z.config({ jitless: true });

export const CONFIG_STORAGE_KEY = "chatty-kg:config:v1";

export interface ClientConfig {
  /** undefined: the server's default KG */
  kgId?: string;
  pipeline: PipelineConfig;
  /** undefined: the server's configured provider */
  llm?: LlmOverride;
  /** true once the user picked a strategy; until then a new conversation uses the server's default (the settings say why) */
  strategyPicked?: boolean;
}

const storedSchema = z.object({
  kgId: z.string().min(1).optional(),
  pipeline: pipelineConfigSchema.partial().optional(),
  llm: llmOverrideSchema.optional(),
  strategyPicked: z.boolean().optional(),
});

export const DEFAULT_CLIENT_CONFIG: ClientConfig = { pipeline: DEFAULT_CONFIG };

/** The defaults, with the server's default strategy (lib/server/default-strategy.ts) when it sent one. */
export function defaultClientConfig(serverStrategy?: StrategyId): ClientConfig {
  return serverStrategy ? { pipeline: { ...DEFAULT_CONFIG, strategy: serverStrategy } } : DEFAULT_CLIENT_CONFIG;
}

/**
 * Parses what localStorage held; anything invalid falls back to the defaults (field by field for the pipeline). A
 * strategy the user never picked follows the server's default.
 */
export function parseStoredConfig(text: string | null, serverStrategy?: StrategyId): ClientConfig {
  const defaults = defaultClientConfig(serverStrategy);
  if (!text) return defaults;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return defaults;
  }
  const parsed = storedSchema.safeParse(raw);
  if (!parsed.success) return defaults;
  const picked = parsed.data.strategyPicked === true;
  const stored = picked ? parsed.data.pipeline : { ...parsed.data.pipeline, strategy: undefined };
  const pipeline = pipelineConfigSchema.safeParse({ ...defaults.pipeline, ...Object.fromEntries(Object.entries(stored ?? {}).filter(([, v]) => v !== undefined)) });
  return {
    kgId: parsed.data.kgId,
    pipeline: pipeline.success ? pipeline.data : defaults.pipeline,
    llm: parsed.data.llm,
    ...(picked ? { strategyPicked: true } : {}),
  };
}

/**
 * The config once the KG in use names its own default strategy (its real-model eval runs, lib/server/default-strategy.ts):
 * a strategy the user never picked follows it; a picked one stays. Returns the same object when nothing changes.
 */
export function followKgDefault(config: ClientConfig, kgDefault: StrategyId | undefined): ClientConfig {
  if (!kgDefault || config.strategyPicked || config.pipeline.strategy === kgDefault) return config;
  return { ...config, pipeline: { ...config.pipeline, strategy: kgDefault } };
}
