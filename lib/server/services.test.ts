// LLM config for a turn: a request may pick provider/model/baseURL, but keys come from env and never follow a request's URL.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { resolveLlmConfig } from "./services";

const ENV = { LLM_BASE_URL: "http://127.0.0.1:11434/v1", LLM_MODEL: "llama3", LLM_API_KEY: "sk-server-secret", LLM_MODEL_QIR: "big" };

describe("resolveLlmConfig", () => {
  it("uses env as is without an override", () => {
    expect(resolveLlmConfig(undefined, ENV)).toMatchObject({ provider: "openai-compatible", model: "llama3", apiKey: "sk-server-secret", roleModels: { qir: "big" } });
  });

  it("fails with llm_not_configured when env has no LLM", () => {
    const e = (() => {
      try {
        resolveLlmConfig(undefined, {});
      } catch (err) {
        return err;
      }
    })();
    expect(isAppError(e, "llm_not_configured")).toBe(true);
  });

  it("keeps the server key for the server's own base URL, with the requested model for every role", () => {
    const c = resolveLlmConfig({ provider: "openai-compatible", model: "qwen", baseURL: "http://127.0.0.1:11434/v1" }, ENV);
    expect(c).toMatchObject({ model: "qwen", apiKey: "sk-server-secret" });
    expect(c.roleModels).toBeUndefined();
  });

  it("never sends the server's key to a base URL the request chose, even an allowed one", () => {
    const env = { ...ENV, LLM_ALLOWED_BASE_URLS: "http://attacker.example/v1" };
    const c = resolveLlmConfig({ provider: "openai-compatible", model: "qwen", baseURL: "http://attacker.example/v1" }, env);
    expect(c.baseURL).toBe("http://attacker.example/v1");
    expect(c.apiKey).toBeUndefined();
  });

  it("refuses a request's base URL that is not on LLM_ALLOWED_BASE_URLS, naming the variable", () => {
    const refused = (baseURL: string, env: Record<string, string> = ENV) => {
      try {
        resolveLlmConfig({ provider: "openai-compatible", model: "qwen", baseURL }, env);
        return undefined;
      } catch (e) {
        return e;
      }
    };
    const e = refused("http://attacker.example/v1");
    expect(isAppError(e, "url_forbidden")).toBe(true);
    expect((e as Error).message).toMatch(/LLM_ALLOWED_BASE_URLS/);
    // the default list is Ollama on loopback; the server's own LLM_BASE_URL is always allowed
    expect(refused("http://localhost:11434/v1/", { LLM_MODEL: "m" })).toBeUndefined();
    expect(refused("http://10.0.0.5:8000/v1", { ...ENV, LLM_BASE_URL: "http://10.0.0.5:8000/v1" })).toBeUndefined();
    expect(isAppError(refused("http://127.0.0.1:11434/v1", { ...ENV, LLM_BASE_URL: "", LLM_ALLOWED_BASE_URLS: "https://llm.internal.example/v1" }), "url_forbidden")).toBe(true);
  });

  it("switching provider uses that provider's own key, not LLM_API_KEY, and drops the env base URL", () => {
    const c = resolveLlmConfig({ provider: "openai", model: "gpt-4o-mini" }, { ...ENV, OPENAI_API_KEY: "sk-openai" });
    expect(c).toMatchObject({ provider: "openai", apiKey: "sk-openai" });
    expect(c.baseURL).toBeUndefined();
    expect(() => resolveLlmConfig({ provider: "google", model: "gemini-2.0-flash" }, ENV)).toThrow(/GOOGLE_GENERATIVE_AI_API_KEY/);
  });

  it("refuses a base URL for providers other than openai-compatible", () => {
    expect(() => resolveLlmConfig({ provider: "openai", model: "m", baseURL: "http://x.example/v1" }, { OPENAI_API_KEY: "k" })).toThrow(/openai-compatible/);
  });
});
