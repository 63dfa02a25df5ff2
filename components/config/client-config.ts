// What the config strip sets for the next question (KG, pipeline parameters, LLM override), validated from localStorage.
import { z } from "zod";
import { llmOverrideSchema, type LlmOverride } from "@/lib/api/contract";
import { DEFAULT_CONFIG, pipelineConfigSchema, type PipelineConfig } from "@/lib/pipeline/types";

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
}

const storedSchema = z.object({
  kgId: z.string().min(1).optional(),
  pipeline: pipelineConfigSchema.partial().optional(),
  llm: llmOverrideSchema.optional(),
});

export const DEFAULT_CLIENT_CONFIG: ClientConfig = { pipeline: DEFAULT_CONFIG };

/** Parses what localStorage held; anything invalid falls back to the defaults (field by field for the pipeline). */
export function parseStoredConfig(text: string | null): ClientConfig {
  if (!text) return DEFAULT_CLIENT_CONFIG;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return DEFAULT_CLIENT_CONFIG;
  }
  const parsed = storedSchema.safeParse(raw);
  if (!parsed.success) return DEFAULT_CLIENT_CONFIG;
  const pipeline = pipelineConfigSchema.safeParse({ ...DEFAULT_CONFIG, ...parsed.data.pipeline });
  return {
    kgId: parsed.data.kgId,
    pipeline: pipeline.success ? pipeline.data : DEFAULT_CONFIG,
    llm: parsed.data.llm,
  };
}
