import { describe, expect, it } from "vitest";
import { MockLanguageModelV4 } from "ai/test";
import { parseLlmConfig } from "@/lib/llm/config";
import { createModelResolver } from "@/lib/llm/providers";

// Provider/model ids the SDKs report (no network call is made to build a model).
type Described = { provider: string; modelId: string };

describe("createModelResolver", () => {
  it("openai resolves to the chat-completions model, with per-role overrides", () => {
    const resolve = createModelResolver(parseLlmConfig({ provider: "openai", model: "gpt-4o-mini", apiKey: "sk-x", roleModels: { qir: "gpt-4.1" } }));
    const qir = resolve("qir");
    const answer = resolve("answer");
    expect(qir).toMatchObject({ provider: "openai", modelId: "gpt-4.1" });
    expect((qir.model as Described).provider).toBe("openai.chat");
    expect((qir.model as Described).modelId).toBe("gpt-4.1");
    expect(answer.modelId).toBe("gpt-4o-mini");
    expect(resolve("answer")).toBe(answer); // cached per model id
  });

  it("google resolves to a Gemini model", () => {
    const m = createModelResolver(parseLlmConfig({ provider: "google", model: "gemini-2.0-flash", apiKey: "AIza-x" }))("answer");
    expect(m.provider).toBe("google");
    expect((m.model as Described).provider).toMatch(/^google/);
    expect((m.model as Described).modelId).toBe("gemini-2.0-flash");
  });

  it("openai-compatible resolves to a chat model at the base URL", () => {
    const m = createModelResolver(parseLlmConfig({ provider: "openai-compatible", model: "qwen2.5:7b", baseURL: "http://127.0.0.1:11434/v1" }))("vertex");
    expect(m).toMatchObject({ provider: "openai-compatible", modelId: "qwen2.5:7b" });
    expect((m.model as Described).provider).toBe("openai-compatible.chat");
  });

  it("mock resolves to the model (or resolver) passed in, and fails clearly without one", () => {
    const mock = new MockLanguageModelV4();
    const resolve = createModelResolver(parseLlmConfig({ provider: "mock", model: "mock" }), { mock });
    expect(resolve("qir")).toEqual({ provider: "mock", modelId: "mock", model: mock });
    const custom = () => ({ provider: "mock" as const, modelId: "x", model: mock });
    expect(createModelResolver(parseLlmConfig({ provider: "mock", model: "mock" }), { mock: custom })).toBe(custom);
    expect(() => createModelResolver(parseLlmConfig({ provider: "mock", model: "mock" }))).toThrow(/no mock model/);
  });

  it("an incomplete config is llm_not_configured naming the variable", () => {
    expect(() => createModelResolver(parseLlmConfig({ provider: "openai", model: "gpt-4o" }))).toThrow(/OPENAI_API_KEY/);
    expect(() => createModelResolver(parseLlmConfig({ provider: "openai-compatible", model: "m" }))).toThrow(/LLM_BASE_URL/);
  });
});
