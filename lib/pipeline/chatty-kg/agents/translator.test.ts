import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState } from "../state";
import { looksEnglish, translatorAgent } from "./translator";

function setup(script: Script, question: string, extra: Partial<ChattyState> = {}) {
  const llm = createScriptedLlm(script);
  const { ctx, events } = createTestContext({ kg: {} as KnowledgeGraph, llm: llm.gateway, config: { batchContext: false } });
  const state: ChattyState = { question, dialogue: [], config: { ...DEFAULT_CONFIG, batchContext: false }, ...extra };
  return { llm, ctx, events, state };
}

describe("translatorAgent", () => {
  it("translates a German question with one call", async () => {
    const { llm, ctx, state } = setup(
      { translator: [{ json: { language: "de", english: "Who wrote Harry Potter?" } }] },
      "Wer hat Harry Potter geschrieben?",
    );
    expect(await translatorAgent(state, ctx)).toEqual({ language: "de", englishQuestion: "Who wrote Harry Potter?" });
    expect(llm.records).toHaveLength(1);
    expect(llm.calls[0].messages.map((m) => m.text).join("\n")).toContain("Wer hat Harry Potter geschrieben?");
  });

  it("skips the call for a clearly English question", async () => {
    const { llm, ctx, state } = setup({}, "Who is the author of Harry Potter?");
    expect(await translatorAgent(state, ctx)).toEqual({ language: "en", englishQuestion: "Who is the author of Harry Potter?" });
    expect(llm.calls).toHaveLength(0);
  });

  it("skips the call when the Chat agent already gave the English question", async () => {
    const { llm, ctx, state } = setup({}, "Qui a écrit Harry Potter ?", { englishQuestion: "Who wrote Harry Potter?", language: "fr" });
    expect(await translatorAgent(state, ctx)).toEqual({});
    expect(llm.calls).toHaveLength(0);
  });

  it("retries with the reason when the language code is not a code, then succeeds", async () => {
    const { llm, ctx, state } = setup(
      {
        translator: [
          { json: { language: "French", english: "Who wrote Harry Potter?" } },
          { json: { language: "fr", english: "Who wrote Harry Potter?" } },
        ],
      },
      "Qui a écrit Harry Potter ?",
    );
    expect(await translatorAgent(state, ctx)).toEqual({ language: "fr", englishQuestion: "Who wrote Harry Potter?" });
    expect(llm.calls).toHaveLength(2);
    expect(llm.calls[1].messages.map((m) => m.text).join("\n")).toContain('got "French"');
  });

  it("keeps an English question exactly as typed even when the model rewrites it", async () => {
    const { ctx, state } = setup({ translator: [{ json: { language: "en", english: "Who wrote it?" } }] }, "Who wrote Les Misérables?");
    expect(await translatorAgent(state, ctx)).toEqual({ language: "en", englishQuestion: "Who wrote Les Misérables?" });
  });

  it("fails clearly after θ invalid replies", async () => {
    const { llm, ctx, state } = setup({ translator: ["no idea", "still no JSON", { json: { language: "de", english: "" } }] }, "Wer ist Hermine?");
    const update = await translatorAgent(state, ctx);
    expect(update.failure).toMatchObject({ stage: "translate", code: "pipeline_failed" });
    expect(update.failure?.message).toMatch(/^Could not translate the question: "english" is empty/);
    expect(llm.calls).toHaveLength(DEFAULT_CONFIG.theta);
  });
});

describe("looksEnglish", () => {
  it.each(["Who wrote Harry Potter?", "How many films are in the series?", "When did Dumbledore die?"])("%s is English", (t) =>
    expect(looksEnglish(t)).toBe(true),
  );
  it.each(["Wer hat Harry Potter geschrieben?", "Qui a écrit Harry Potter ?", "¿Quién escribió Harry Potter?", "Chi è Hermione?", "哈利波特的作者是谁？"])(
    "%s is not clearly English",
    (t) => expect(looksEnglish(t)).toBe(false),
  );
});
