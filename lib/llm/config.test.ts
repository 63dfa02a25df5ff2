import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { llmConfigFromEnv, llmStatus, llmStatusFromEnv, parseLlmConfig, requireLlmConfig } from "@/lib/llm/config";

describe("llmConfigFromEnv", () => {
  it("returns null when nothing is configured, and requireLlmConfig says exactly what to set", () => {
    expect(llmConfigFromEnv({})).toBeNull();
    try {
      requireLlmConfig({});
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e, "llm_not_configured")).toBe(true);
      const msg = (e as Error).message;
      for (const v of ["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "LLM_BASE_URL", "LLM_MODEL"]) expect(msg).toContain(v);
    }
  });

  it("detects OpenAI from OPENAI_API_KEY with a default model, temperature 0 and a 60 s timeout", () => {
    const c = llmConfigFromEnv({ OPENAI_API_KEY: "sk-test-123456" })!;
    expect(c).toMatchObject({ provider: "openai", apiKey: "sk-test-123456", temperature: 0, timeoutMs: 60_000 });
    expect(c.model).toBeTruthy();
  });

  it("detects Google from its key, and LLM_MODEL overrides the default", () => {
    const c = llmConfigFromEnv({ GOOGLE_GENERATIVE_AI_API_KEY: "AIza-x", LLM_MODEL: "gemini-2.5-pro" })!;
    expect(c).toMatchObject({ provider: "google", model: "gemini-2.5-pro", apiKey: "AIza-x" });
  });

  it("LLM_BASE_URL means an OpenAI-compatible server and never borrows the OpenAI key", () => {
    const c = llmConfigFromEnv({ LLM_BASE_URL: "http://127.0.0.1:11434/v1", LLM_MODEL: "qwen2.5", OPENAI_API_KEY: "sk-real-openai-key" })!;
    expect(c.provider).toBe("openai-compatible");
    expect(c.apiKey).toBeUndefined();
    expect(llmConfigFromEnv({ LLM_BASE_URL: "http://h/v1", LLM_MODEL: "m", LLM_API_KEY: "k-local" })!.apiKey).toBe("k-local");
  });

  it("an openai-compatible server without LLM_MODEL is an error naming LLM_MODEL", () => {
    expect(() => llmConfigFromEnv({ LLM_BASE_URL: "http://127.0.0.1:11434/v1" })).toThrow(/LLM_MODEL/);
  });

  it("explicit LLM_PROVIDER wins; missing key is named", () => {
    expect(() => llmConfigFromEnv({ LLM_PROVIDER: "openai" })).toThrow(/OPENAI_API_KEY \(or LLM_API_KEY\)/);
    const c = llmConfigFromEnv({ LLM_PROVIDER: "openai", LLM_API_KEY: "sk-abcdef1234", LLM_BASE_URL: "https://proxy.example/v1" })!;
    expect(c).toMatchObject({ provider: "openai", baseURL: "https://proxy.example/v1" });
    expect(() => llmConfigFromEnv({ LLM_PROVIDER: "anthropic" })).toThrow(/LLM_PROVIDER must be one of/);
  });

  it("reads per-role models, timeout, temperature and max tokens", () => {
    const c = llmConfigFromEnv({
      OPENAI_API_KEY: "sk-x1234567",
      LLM_MODEL: "gpt-4o",
      LLM_MODEL_QIR: "gpt-4.1",
      LLM_MODEL_TRANSLATOR: "gpt-4o-mini",
      LLM_TIMEOUT_MS: "5000",
      LLM_TEMPERATURE: "0.2",
      LLM_MAX_OUTPUT_TOKENS: "800",
    })!;
    expect(c.roleModels).toEqual({ qir: "gpt-4.1", translator: "gpt-4o-mini" });
    expect(c).toMatchObject({ timeoutMs: 5000, temperature: 0.2, maxOutputTokens: 800 });
  });

  it("rejects invalid numbers and URLs with the variable name", () => {
    expect(() => llmConfigFromEnv({ OPENAI_API_KEY: "k", LLM_TIMEOUT_MS: "soon" })).toThrow(/LLM_TIMEOUT_MS must be a positive integer.*"soon"/);
    expect(() => llmConfigFromEnv({ LLM_BASE_URL: "not a url", LLM_MODEL: "m" })).toThrow(/LLM_BASE_URL must be a URL/);
  });
});

describe("llmStatus", () => {
  it("nothing configured: not configured, lists the alternatives", () => {
    const s = llmStatus(null);
    expect(s.configured).toBe(false);
    expect(s.missing).toEqual(["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "LLM_BASE_URL + LLM_MODEL"]);
  });

  it("configured: provider and model, never the key", () => {
    const s = llmStatus(llmConfigFromEnv({ OPENAI_API_KEY: "sk-secret-value-42", LLM_MODEL_QIR: "gpt-4.1" }));
    expect(s).toMatchObject({ configured: true, provider: "openai", missing: [], roleModels: { qir: "gpt-4.1" } });
    expect(JSON.stringify(s)).not.toContain("sk-secret-value-42");
  });

  it("a config built in code without its key reports the key variable as missing", () => {
    const s = llmStatus(parseLlmConfig({ provider: "google", model: "gemini-2.0-flash" }));
    expect(s).toMatchObject({ configured: false, missing: ["GOOGLE_GENERATIVE_AI_API_KEY (or LLM_API_KEY)"] });
  });

  it("from env, partial configs report exactly what is missing instead of throwing", () => {
    expect(llmStatusFromEnv({ LLM_PROVIDER: "openai-compatible" })).toMatchObject({
      configured: false,
      provider: "openai-compatible",
      missing: ["LLM_BASE_URL", "LLM_MODEL"],
    });
    expect(llmStatusFromEnv({ OPENAI_API_KEY: "k", LLM_TIMEOUT_MS: "-1" })).toMatchObject({ configured: false, missing: ["LLM_TIMEOUT_MS"] });
  });
});
