import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type Answer, type PipelineConfig } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState } from "../state";
import { naturalAnswerAgent, templateAnswer } from "./answer-agent";

const ROWLING: Answer = { kind: "items", items: [{ type: "uri", value: "http://example.org/hp/J_K_Rowling", label: "J. K. Rowling" }] };

function setup(script: Script, state: Partial<ChattyState>, config: Partial<PipelineConfig> = { naturalAnswer: true }) {
  const llm = createScriptedLlm(script);
  const cfg = { ...DEFAULT_CONFIG, ...config };
  const { ctx, events } = createTestContext({ kg: {} as KnowledgeGraph, llm: llm.gateway, config: cfg });
  const full: ChattyState = { question: "Who is the author of Harry Potter?", dialogue: [], config: cfg, language: "en", ...state };
  return { llm, ctx, events, state: full };
}
const promptOf = (llm: ReturnType<typeof createScriptedLlm>, i: number) => llm.calls[i].messages.map((m) => m.text).join("\n");

describe("naturalAnswerAgent", () => {
  it("does nothing (no call) when natural answers are off", async () => {
    const { llm, ctx, state } = setup({}, { answer: ROWLING }, { naturalAnswer: false });
    expect(await naturalAnswerAgent(state, ctx)).toEqual({});
    expect(llm.calls).toHaveLength(0);
  });

  it("restates the KG answer in the user's language with one call", async () => {
    const { llm, ctx, state } = setup(
      { answer: [{ json: { answer: "Harry Potter wurde von J. K. Rowling geschrieben." } }] },
      { question: "Wer hat Harry Potter geschrieben?", standaloneQuestion: "Who wrote Harry Potter?", language: "de", answer: ROWLING },
    );
    expect(await naturalAnswerAgent(state, ctx)).toEqual({ naturalAnswer: "Harry Potter wurde von J. K. Rowling geschrieben." });
    expect(llm.calls).toHaveLength(1);
    const prompt = promptOf(llm, 0);
    expect(prompt).toContain('ISO 639-1 code "de"');
    expect(prompt).toContain("Knowledge-graph answer: J. K. Rowling");
    expect(prompt).toContain("Wer hat Harry Potter geschrieben?");
  });

  it("rejects a phrasing that adds a number not in the answer, and accepts the retry", async () => {
    const { llm, ctx, state } = setup(
      {
        answer: [
          { json: { answer: "J. K. Rowling wrote Harry Potter in 1997." } },
          { json: { answer: "Harry Potter was written by J. K. Rowling." } },
        ],
      },
      { answer: ROWLING },
    );
    expect(await naturalAnswerAgent(state, ctx)).toEqual({ naturalAnswer: "Harry Potter was written by J. K. Rowling." });
    expect(llm.calls).toHaveLength(2);
    expect(promptOf(llm, 1)).toContain("the number(s) 1997 are not in the knowledge-graph answer");
  });

  it("accepts the count it was given", async () => {
    const { ctx, state } = setup(
      { answer: [{ json: { answer: "There are 7 Harry Potter books." } }] },
      { question: "How many Harry Potter books are there?", answer: { kind: "count", count: 7 } },
    );
    expect(await naturalAnswerAgent(state, ctx)).toEqual({ naturalAnswer: "There are 7 Harry Potter books." });
  });

  it("falls back to the plain answer after θ rejected phrasings (the KG answer stays)", async () => {
    const { llm, ctx, state, events } = setup({ answer: ["J. K. Rowling.", "", "J. K. Rowling (born 1965)."] }, { answer: ROWLING });
    expect(await naturalAnswerAgent(state, ctx)).toEqual({ naturalAnswer: "J. K. Rowling" });
    expect(llm.calls).toHaveLength(DEFAULT_CONFIG.theta);
    expect(events.some((e) => e.type === "warning" && e.stage === "answer")).toBe(true);
  });

  it("says the KG has no answer without a model call in a templated language", async () => {
    const { llm, ctx, state } = setup({}, { language: "fr", answer: { kind: "none", reason: "no rows" } });
    expect(await naturalAnswerAgent(state, ctx)).toEqual({ naturalAnswer: "Le graphe de connaissances ne contient pas de réponse à cette question." });
    expect(llm.calls).toHaveLength(0);
  });

  it("leaves conversation replies alone", async () => {
    const { llm, ctx, state } = setup({}, { answer: { kind: "chat", text: "Hello!" } });
    expect(await naturalAnswerAgent(state, ctx)).toEqual({});
    expect(llm.calls).toHaveLength(0);
  });
});

describe("templateAnswer", () => {
  it("renders each answer kind", () => {
    expect(templateAnswer({ kind: "boolean", value: false }, "de")).toBe("Nein.");
    expect(templateAnswer({ kind: "count", count: 3 }, "en")).toBe("3");
    const many: Answer = { kind: "items", items: Array.from({ length: 23 }, (_, i) => ({ type: "literal" as const, value: `v${i}` })) };
    expect(templateAnswer(many, "en")).toMatch(/v19 \(\+3\)$/);
    const table: Answer = {
      kind: "table",
      columns: ["who", "mail"],
      rows: [[{ type: "uri", value: "http://example.org/a", label: "Ann" }, { type: "literal", value: "a@x.org" }], [{ type: "uri", value: "http://example.org/b" }, null]],
    };
    expect(templateAnswer(table, "en")).toBe("Ann | a@x.org; http://example.org/b | —");
    expect(templateAnswer({ kind: "table", columns: ["x"], rows: [] }, "de")).toBe("Der Wissensgraph enthält keine Antwort auf diese Frage.");
  });
});
