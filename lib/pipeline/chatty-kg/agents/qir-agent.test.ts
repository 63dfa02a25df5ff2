import { describe, expect, it } from "vitest";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type PipelineConfig } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState } from "../state";
import { qirAgent } from "./qir-agent";

function setup(script: Script, state: Partial<ChattyState> & { question: string }, config: Partial<PipelineConfig> = {}) {
  const llm = createScriptedLlm(script);
  const cfg = { ...DEFAULT_CONFIG, ...config };
  const { ctx, events } = createTestContext({ kg: {} as KnowledgeGraph, llm: llm.gateway, config: cfg });
  return { llm, ctx, events, state: { dialogue: [], config: cfg, ...state } as ChattyState };
}
const promptOf = (llm: ReturnType<typeof createScriptedLlm>, i: number) => llm.calls[i].messages.map((m) => m.text).join("\n");

const RELEASE = {
  reasoning: "Step 1: entity. Step 2: ?year. Step 3: released. Step 4: one triple.",
  entities: ["Harry Potter and the Philosopher's Stone"],
  unknowns: ["?year"],
  relations: ["release year"],
  triples: [["Harry Potter and the Philosopher's Stone", "release year", "?year"]],
  target: "?year",
  question_type: "factoid",
};

describe("qirAgent", () => {
  it("builds the QIR of the standalone question in one call", async () => {
    const { llm, ctx, state, events } = setup(
      { qir: [{ json: RELEASE }] },
      {
        question: "Wann kam er heraus?",
        englishQuestion: "When was it released?",
        standaloneQuestion: "When was Harry Potter and the Philosopher's Stone released?",
      },
    );
    const update = await qirAgent(state, ctx);
    expect(update.failure).toBeUndefined();
    expect(update.qir).toEqual({
      entities: ["Harry Potter and the Philosopher's Stone"],
      unknowns: ["?year"],
      relations: ["release year"],
      triples: [{ subject: "Harry Potter and the Philosopher's Stone", relation: "release year", object: "?year" }],
      target: "?year",
      questionType: "factoid",
    });
    expect(llm.calls).toHaveLength(1);
    expect(promptOf(llm, 0)).toContain("Question: When was Harry Potter and the Philosopher's Stone released?");
    // the paper's two worked examples (one verb-based, one noun-based) plus one with constraints
    expect(promptOf(llm, 0).match(/^Example \d.*$/gm)).toEqual(["Example 1 (verb-based relations, two hops)", "Example 2 (noun-based relation, count)", "Example 3 (constraints, no named entity)"]);
    expect(events.filter((e) => e.type === "llm-call" && e.stage === "qir")).toHaveLength(1);
  });

  it("carries the question type that drives ASK and COUNT downstream", async () => {
    const { ctx, state } = setup(
      {
        qir: [
          {
            json: {
              entities: ["Hermione Granger", "Gryffindor"],
              unknowns: [],
              relations: ["house"],
              triples: [["Hermione Granger", "house", "Gryffindor"]],
              target: null,
              question_type: "boolean",
            },
          },
        ],
      },
      { question: "Is Hermione Granger in Gryffindor?" },
    );
    expect((await qirAgent(state, ctx)).qir).toMatchObject({ questionType: "boolean", target: undefined, unknowns: [] });
  });

  it("retries after a rejected triple set, and the retry prompt says what failed", async () => {
    const bad = { ...RELEASE, triples: [["Harry Potter and the Philosopher's Stone", "release year"]] };
    const { llm, ctx, state } = setup({ qir: [{ json: bad }, { json: RELEASE }] }, { question: "When was Harry Potter and the Philosopher's Stone released?" });
    const update = await qirAgent(state, ctx);
    expect(update.qir?.triples).toHaveLength(1);
    expect(llm.calls).toHaveLength(2);
    expect(promptOf(llm, 1)).toContain("must have exactly three parts");
    expect(llm.records[0].validationError).toContain("triple 1");
    expect(llm.records[1].attempt).toBe(2);
  });

  it("fails clearly after θ invalid outputs instead of passing an invalid QIR on", async () => {
    const noVariable = { ...RELEASE, triples: [["Harry Potter and the Philosopher's Stone", "release year", "1997"]], target: null };
    const { llm, ctx, state } = setup(
      { qir: ["I think it was 1997.", { json: noVariable }] },
      { question: "When was Harry Potter and the Philosopher's Stone released?" },
      { theta: 2 },
    );
    const update = await qirAgent(state, ctx);
    expect(update.qir).toBeUndefined();
    expect(update.failure).toEqual({
      stage: "qir",
      code: "pipeline_failed",
      message: expect.stringMatching(/^Could not understand the question: \(4\)/),
    });
    expect(llm.calls).toHaveLength(2);
  });

  it("uses a valid draft from the Chat agent's tool call without an LLM call", async () => {
    const { reasoning: _r, ...draft } = RELEASE;
    const { llm, ctx, state, events } = setup({}, { question: "When was Harry Potter and the Philosopher's Stone released?", qirDraft: draft });
    const update = await qirAgent(state, ctx);
    expect(update).toMatchObject({ qirSource: "chat", qir: { target: "?year", questionType: "factoid" } });
    expect(llm.calls).toHaveLength(0);
    expect(events.filter((e) => e.type === "llm-call")).toHaveLength(0);
  });

  it("makes its own call when the draft fails the validator, telling the model why", async () => {
    const draft = { ...RELEASE, triples: [["Harry Potter and the Philosopher's Stone", "is", "?year"]] };
    const { llm, ctx, state, events } = setup({ qir: [{ json: RELEASE }] }, { question: "When was Harry Potter and the Philosopher's Stone released?", qirDraft: draft });
    const update = await qirAgent(state, ctx);
    expect(update).toMatchObject({ qirSource: "agent", qir: { relations: ["release year"] } });
    expect(llm.calls).toHaveLength(1);
    expect(promptOf(llm, 0)).toContain('A first draft of this QIR was rejected: triple 1: the relation "is" is a helper word');
    expect(events.some((e) => e.type === "warning" && e.stage === "qir")).toBe(true);
  });
});
