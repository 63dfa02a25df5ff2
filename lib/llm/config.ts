// Which LLM provider and models the app uses: a zod-checked config, read from env vars, and a key-free status report.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { AGENT_ROLES, type AgentRole } from "@/lib/llm/types";

export const PROVIDERS = ["openai", "google", "openai-compatible", "mock"] as const;

/** Defaults so that setting only a provider key is enough; openai-compatible servers have no sensible default. */
export const DEFAULT_MODELS: Partial<Record<(typeof PROVIDERS)[number], string>> = {
  openai: "gpt-4o-mini",
  google: "gemini-2.0-flash",
  mock: "mock",
};

export const DEFAULT_TIMEOUT_MS = 60_000;

const roleModelsSchema = z.partialRecord(z.enum(AGENT_ROLES), z.string().min(1));

export const llmConfigSchema = z.object({
  provider: z.enum(PROVIDERS),
  model: z.string().min(1),
  baseURL: z.url().optional(),
  apiKey: z.string().min(1).optional(),
  roleModels: roleModelsSchema.optional(),
  timeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  temperature: z.number().min(0).max(2).default(0),
  maxOutputTokens: z.number().int().positive().optional(),
});

export type LlmConfig = z.output<typeof llmConfigSchema>;
export type LlmConfigInput = z.input<typeof llmConfigSchema>;

export type Env = Record<string, string | undefined>;

/** What to tell a user who has configured nothing (also the `llm_not_configured` message). */
export const NOT_CONFIGURED_MESSAGE =
  "No LLM is configured. Set OPENAI_API_KEY (OpenAI), or GOOGLE_GENERATIVE_AI_API_KEY (Google Gemini), " +
  "or LLM_BASE_URL and LLM_MODEL (an OpenAI-compatible server such as Ollama or vLLM). " +
  "Optionally set LLM_PROVIDER, LLM_MODEL, LLM_API_KEY, LLM_TIMEOUT_MS, or LLM_MODEL_<ROLE> (e.g. LLM_MODEL_QIR).";

const NOTHING_MISSING_ALTERNATIVES = ["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "LLM_BASE_URL + LLM_MODEL"];

/** Env var that holds the model for a role, e.g. LLM_MODEL_QIR. */
export function roleModelEnvVar(role: AgentRole): string {
  return `LLM_MODEL_${role.toUpperCase()}`;
}

/** Validates a config built in code; throws llm_not_configured naming the bad field. */
export function parseLlmConfig(input: LlmConfigInput): LlmConfig {
  const r = llmConfigSchema.safeParse(input);
  if (!r.success) {
    const issues = r.error.issues.map((i) => `${i.path.join(".") || "config"}: ${i.message}`).join("; ");
    throw new AppError("llm_not_configured", `Invalid LLM configuration: ${issues}`);
  }
  return r.data;
}

function envValue(env: Env, name: string): string | undefined {
  const v = env[name]?.trim();
  return v ? v : undefined;
}

function envNumber(env: Env, name: string, check: (n: number) => boolean, expected: string): number | undefined {
  const raw = envValue(env, name);
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n) || !check(n)) {
    throw new AppError("llm_not_configured", `${name} must be ${expected} (got "${raw}").`, { details: { invalid: [name] } });
  }
  return n;
}

/** Picks the provider: explicit LLM_PROVIDER, else LLM_BASE_URL (an explicit server), else whichever key is present. */
function detectProvider(env: Env): LlmConfig["provider"] | undefined {
  const explicit = envValue(env, "LLM_PROVIDER");
  if (explicit !== undefined) {
    const p = explicit.toLowerCase();
    if (!(PROVIDERS as readonly string[]).includes(p)) {
      throw new AppError("llm_not_configured", `LLM_PROVIDER must be one of ${PROVIDERS.join(", ")} (got "${explicit}").`, {
        details: { invalid: ["LLM_PROVIDER"] },
      });
    }
    return p as LlmConfig["provider"];
  }
  // A base URL is the most specific signal: someone pointed us at a server. (Provider keys are never sent to it.)
  if (envValue(env, "LLM_BASE_URL")) return "openai-compatible";
  if (envValue(env, "OPENAI_API_KEY")) return "openai";
  if (envValue(env, "GOOGLE_GENERATIVE_AI_API_KEY")) return "google";
  return undefined;
}

/** The provider's own key env var (LLM_API_KEY always takes precedence). */
function providerKeyVar(provider: LlmConfig["provider"]): string | undefined {
  if (provider === "openai") return "OPENAI_API_KEY";
  if (provider === "google") return "GOOGLE_GENERATIVE_AI_API_KEY";
  return undefined;
}

/** Env vars that must still be set for this config to work (empty = complete). */
export function missingFor(config: Pick<LlmConfig, "provider" | "model" | "apiKey" | "baseURL">): string[] {
  const missing: string[] = [];
  const keyVar = providerKeyVar(config.provider);
  if (keyVar && !config.apiKey) missing.push(`${keyVar} (or LLM_API_KEY)`);
  if (config.provider === "openai-compatible" && !config.baseURL) missing.push("LLM_BASE_URL");
  if (!config.model) missing.push("LLM_MODEL");
  return missing;
}

/**
 * Reads the LLM config from env vars. Returns null when nothing points at a provider; throws
 * AppError("llm_not_configured") naming the exact variables when a provider is chosen but incomplete or invalid.
 */
export function llmConfigFromEnv(env: Env = process.env): LlmConfig | null {
  const provider = detectProvider(env);
  if (!provider) return null;
  const keyVar = providerKeyVar(provider);
  const apiKey = envValue(env, "LLM_API_KEY") ?? (keyVar ? envValue(env, keyVar) : undefined);
  const baseURL = envValue(env, "LLM_BASE_URL");
  const model = envValue(env, "LLM_MODEL") ?? DEFAULT_MODELS[provider] ?? "";
  const missing = missingFor({ provider, model, apiKey, baseURL });
  if (missing.length > 0) {
    throw new AppError("llm_not_configured", `The LLM provider "${provider}" is selected but not fully configured: set ${missing.join(" and ")}.`, {
      details: { provider, missing },
    });
  }
  const roleModels: Partial<Record<AgentRole, string>> = {};
  for (const role of AGENT_ROLES) {
    const m = envValue(env, roleModelEnvVar(role));
    if (m) roleModels[role] = m;
  }
  const timeoutMs = envNumber(env, "LLM_TIMEOUT_MS", (n) => Number.isInteger(n) && n > 0, "a positive integer of milliseconds");
  const temperature = envNumber(env, "LLM_TEMPERATURE", (n) => n >= 0 && n <= 2, "a number between 0 and 2");
  const maxOutputTokens = envNumber(env, "LLM_MAX_OUTPUT_TOKENS", (n) => Number.isInteger(n) && n > 0, "a positive integer");
  if (baseURL !== undefined && !z.url().safeParse(baseURL).success) {
    throw new AppError("llm_not_configured", `LLM_BASE_URL must be a URL such as http://127.0.0.1:11434/v1 (got "${baseURL}").`, {
      details: { invalid: ["LLM_BASE_URL"] },
    });
  }
  return parseLlmConfig({
    provider,
    model,
    baseURL,
    apiKey,
    roleModels: Object.keys(roleModels).length > 0 ? roleModels : undefined,
    timeoutMs,
    temperature,
    maxOutputTokens,
  });
}

/** Like llmConfigFromEnv, but "nothing configured" is an error too (for code paths that need a model). */
export function requireLlmConfig(env: Env = process.env): LlmConfig {
  const config = llmConfigFromEnv(env);
  if (!config) throw notConfiguredError();
  return config;
}

export function notConfiguredError(): AppError {
  return new AppError("llm_not_configured", NOT_CONFIGURED_MESSAGE, { details: { missing: NOTHING_MISSING_ALTERNATIVES } });
}

export interface LlmStatus {
  configured: boolean;
  provider?: LlmConfig["provider"];
  model?: string;
  roleModels?: Partial<Record<AgentRole, string>>;
  /** env vars to set; with nothing configured these are alternatives ("set one of") */
  missing: string[];
  /** one sentence for the UI */
  message: string;
}

/** Key-free status of a config: safe to send to the browser. */
export function llmStatus(config: LlmConfig | null): LlmStatus {
  if (!config) return { configured: false, missing: NOTHING_MISSING_ALTERNATIVES, message: NOT_CONFIGURED_MESSAGE };
  const missing = missingFor(config);
  if (missing.length > 0) {
    return { configured: false, provider: config.provider, model: config.model, missing, message: `Set ${missing.join(" and ")}.` };
  }
  return {
    configured: true,
    provider: config.provider,
    model: config.model,
    roleModels: config.roleModels,
    missing: [],
    message: `Using ${config.provider} model ${config.model}.`,
  };
}

/** Status straight from env vars; never throws (invalid values are reported as missing/invalid). */
export function llmStatusFromEnv(env: Env = process.env): LlmStatus {
  try {
    return llmStatus(llmConfigFromEnv(env));
  } catch (e) {
    if (e instanceof AppError && e.code === "llm_not_configured") {
      const d = e.details ?? {};
      const missing = [...((d.missing as string[] | undefined) ?? []), ...((d.invalid as string[] | undefined) ?? [])];
      return { configured: false, provider: d.provider as LlmConfig["provider"] | undefined, missing, message: e.message };
    }
    throw e;
  }
}
