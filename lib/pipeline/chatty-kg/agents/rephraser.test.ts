import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DialogueTurn, type PipelineConfig } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState } from "../state";
import { rephraserAgent, validateRephrase } from "./rephraser";

const HISTORY: DialogueTurn[] = [
  {
    question: "Who is the author of Harry Potter?",
    answer: { kind: "items", items: [{ type: "uri", value: "http://example.org/hp/Rowling", label: "J. K. Rowling" }] },
  },
];

function setup(script: Script, state: Partial<ChattyState> & { question: string }, config: Partial<PipelineConfig> = {}) {
  const llm = createScriptedLlm(script);
  const cfg = { ...DEFAULT_CONFIG, batchContext: false, ...config };
  const { ctx } = createTestContext({ kg: {} as KnowledgeGraph, llm: llm.gateway, config: cfg });
  return { llm, ctx, state: { dialogue: HISTORY, config: cfg, contextDependent: true, ...state } as ChattyState };
}

const promptOf = (llm: ReturnType<typeof createScriptedLlm>, i: number) => llm.calls[i].messages.map((m) => m.text).join("\n");

describe("rephraserAgent", () => {
  it("resolves a pronoun that refers to the previous ANSWER", async () => {
    const { llm, ctx, state } = setup({ rephraser: [{ json: { question: "Where was J. K. Rowling born?" } }] }, { question: "Where was she born?" });
    expect(await rephraserAgent(state, ctx)).toEqual({ standaloneQuestion: "Where was J. K. Rowling born?" });
    expect(llm.calls).toHaveLength(1);
    expect(promptOf(llm, 0)).toContain("A1: J. K. Rowling");
  });

  it("rephrases the English translation of a non-English follow-up", async () => {
    const { llm, ctx, state } = setup(
      { rephraser: [{ json: { question: "Where was J. K. Rowling born?" } }] },
      { question: "Wo wurde sie geboren?", englishQuestion: "Where was she born?", language: "de" },
    );
    expect(await rephraserAgent(state, ctx)).toEqual({ standaloneQuestion: "Where was J. K. Rowling born?" });
    expect(promptOf(llm, 0)).toContain("Follow-up question:\nWhere was she born?");
  });

  it("rejects the question returned unchanged, says why, and accepts the retry", async () => {
    const { llm, ctx, state } = setup(
      { rephraser: [{ json: { question: "Where was she born?" } }, { json: { question: "Where was J. K. Rowling born?" } }] },
      { question: "Where was she born?" },
    );
    expect(await rephraserAgent(state, ctx)).toEqual({ standaloneQuestion: "Where was J. K. Rowling born?" });
    expect(llm.calls).toHaveLength(2);
    expect(promptOf(llm, 1)).toContain("returned unchanged");
  });

  it("fails clearly after θ rejected rewrites", async () => {
    const { llm, ctx, state } = setup(
      { rephraser: [{ json: { question: "What about it?" } }, { json: { question: "" } }, "not json"] },
      { question: "What about it?" },
    );
    const update = await rephraserAgent(state, ctx);
    expect(update.standaloneQuestion).toBeUndefined();
    expect(update.failure).toMatchObject({ stage: "rephrase", code: "pipeline_failed" });
    expect(update.failure?.message).toMatch(/^Could not tell what the question refers to:/);
    expect(llm.calls).toHaveLength(DEFAULT_CONFIG.theta);
  });

  it("makes no call on the first turn, for a self-contained question, in single-turn mode, or when already batched", async () => {
    const first = setup({}, { question: "Who wrote Harry Potter?", dialogue: [], contextDependent: false });
    expect(await rephraserAgent(first.state, first.ctx)).toEqual({ standaloneQuestion: "Who wrote Harry Potter?" });
    expect(first.llm.calls).toHaveLength(0);

    const self = setup({}, { question: "Where was J. K. Rowling born?", contextDependent: false });
    expect(await rephraserAgent(self.state, self.ctx)).toEqual({ standaloneQuestion: "Where was J. K. Rowling born?" });
    expect(self.llm.calls).toHaveLength(0);

    const single = setup({}, { question: "Where was she born?" }, { mode: "single" });
    expect(await rephraserAgent(single.state, single.ctx)).toEqual({ standaloneQuestion: "Where was she born?" });
    expect(single.llm.calls).toHaveLength(0);

    const batched = setup({}, { question: "Where was she born?", standaloneQuestion: "Where was J. K. Rowling born?" });
    expect(await rephraserAgent(batched.state, batched.ctx)).toEqual({});
    expect(batched.llm.calls).toHaveLength(0);
  });
});

describe("validateRephrase", () => {
  it("accepts an unchanged question that does not point back (the classifier was cautious)", () => {
    expect(validateRephrase("Where was J. K. Rowling born?", "Where was J. K. Rowling born?")).toEqual({ ok: true, value: "Where was J. K. Rowling born?" });
  });
  it("rejects a rewrite that names no entity", () => {
    expect(validateRephrase("What about it?", "And that?")).toMatchObject({ ok: false });
  });
  it("rejects an unchanged ellipsis", () => {
    expect(validateRephrase("And the director?", "And the director?")).toMatchObject({ ok: false });
  });
});
