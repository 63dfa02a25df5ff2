import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DialogueTurn, type PipelineConfig } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState } from "../state";
import { classifierAgent, classifierSkipReason } from "./classifier";

const HISTORY: DialogueTurn[] = [
  { question: "Who is the author of Harry Potter?", answer: { kind: "items", items: [{ type: "uri", value: "http://example.org/hp/Rowling", label: "J. K. Rowling" }] } },
];

function setup(script: Script, state: Partial<ChattyState> & { question: string }, config: Partial<PipelineConfig> = {}) {
  const llm = createScriptedLlm(script);
  const cfg = { ...DEFAULT_CONFIG, batchContext: false, ...config };
  const { ctx, events } = createTestContext({ kg: {} as KnowledgeGraph, llm: llm.gateway, config: cfg });
  return { llm, ctx, events, state: { dialogue: HISTORY, config: cfg, ...state } as ChattyState };
}

describe("classifierAgent", () => {
  it("classifies a follow-up as context-dependent, seeing the previous answer", async () => {
    const { llm, ctx, state } = setup({ classifier: [{ json: { dependent: true } }] }, { question: "Where was she born?" });
    expect(await classifierAgent(state, ctx)).toEqual({ contextDependent: true });
    expect(llm.calls).toHaveLength(1);
    const prompt = llm.calls[0].messages.map((m) => m.text).join("\n");
    expect(prompt).toContain("A1: J. K. Rowling <http://example.org/hp/Rowling>");
    expect(prompt).toContain("Where was she born?");
  });

  it("classifies the English translation of a non-English question", async () => {
    const { llm, ctx, state } = setup(
      { classifier: [{ json: { dependent: false } }] },
      { question: "Wo wurde J. K. Rowling geboren?", englishQuestion: "Where was J. K. Rowling born?", language: "de" },
    );
    expect(await classifierAgent(state, ctx)).toEqual({ contextDependent: false });
    expect(llm.calls[0].messages.map((m) => m.text).join("\n")).toContain("Where was J. K. Rowling born?");
  });

  it("retries a reply that is not the JSON asked for, telling the model why", async () => {
    const { llm, ctx, state } = setup({ classifier: ["Dependent", { json: { dependent: true } }] }, { question: "And the director?" });
    expect(await classifierAgent(state, ctx)).toEqual({ contextDependent: true });
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1].messages.map((m) => m.text).join("\n")).toContain("Your previous answer was rejected");
    expect(llm.records[0].validationError).toBeTruthy();
  });

  it("after θ invalid replies treats the question as dependent and warns", async () => {
    const { llm, ctx, state, events } = setup({ classifier: ["yes", "yes", { json: { dependent: "maybe" } }] }, { question: "And the director?" });
    expect(await classifierAgent(state, ctx)).toEqual({ contextDependent: true });
    expect(llm.calls).toHaveLength(DEFAULT_CONFIG.theta);
    expect(events.some((e) => e.type === "warning" && e.stage === "classify")).toBe(true);
  });

  it("makes no call on the first turn, in single-turn mode, or when the Chat agent already classified", async () => {
    const first = setup({}, { question: "Who wrote Harry Potter?", dialogue: [] });
    expect(await classifierAgent(first.state, first.ctx)).toEqual({ contextDependent: false });
    expect(first.llm.calls).toHaveLength(0);

    const single = setup({}, { question: "Where was she born?" }, { mode: "single" });
    expect(await classifierAgent(single.state, single.ctx)).toEqual({ contextDependent: false });
    expect(single.llm.calls).toHaveLength(0);
    expect(classifierSkipReason(single.state)).toMatch(/single-turn/);

    const batched = setup({}, { question: "Where was she born?", contextDependent: true });
    expect(await classifierAgent(batched.state, batched.ctx)).toEqual({});
    expect(batched.llm.calls).toHaveLength(0);
  });
});
