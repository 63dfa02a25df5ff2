// LLM-only baseline: answers from the scripted model alone (the KG is never asked), typed answers, retries, failure.
import { describe, expect, it, vi } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { DEFAULT_PROFILE } from "@/lib/kg/profile";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DerivationEvent, type DialogueTurn, type PipelineConfig, type TurnResult } from "@/lib/pipeline/types";
import { llmOnlyStrategy } from "./llm-only";

/** A KG that fails the test if anything queries it. */
function untouchableKg(): KnowledgeGraph & { calls: ReturnType<typeof vi.fn> } {
  const calls = vi.fn(async () => {
    throw new Error("the LLM-only baseline must not query the KG");
  });
  return {
    calls,
    info: { id: "untouchable", kind: "remote", name: "untouchable" },
    profile: DEFAULT_PROFILE,
    query: calls,
    select: calls,
    ask: calls,
    construct: calls,
    searchLabels: calls,
    close: async () => {},
  } as unknown as KnowledgeGraph & { calls: ReturnType<typeof vi.fn> };
}

async function ask(question: string, script: Script, opts: { dialogue?: DialogueTurn[]; config?: Partial<PipelineConfig> } = {}) {
  const llm = createScriptedLlm(script);
  const kg = untouchableKg();
  const gen = llmOnlyStrategy.run(
    { question, dialogue: opts.dialogue ?? [], config: { ...DEFAULT_CONFIG, ...opts.config } },
    { kg, llm: llm.gateway, similarity: createLexicalSimilarity() },
  );
  const events: DerivationEvent[] = [];
  let step = await gen.next();
  while (!step.done) {
    events.push(step.value);
    step = await gen.next();
  }
  return { result: step.value as TurnResult, events, llm, kg };
}

describe("llm-only strategy", () => {
  it("answers from the model alone: source llm, no SPARQL, one baseline call", async () => {
    const { result, events, llm, kg } = await ask("Who wrote Harry Potter?", { baseline: [{ answers: ["J. K. Rowling"], type: "list" }] });
    expect(result.source).toBe("llm");
    expect(result.answer).toEqual({ kind: "items", items: [{ type: "literal", value: "J. K. Rowling" }] });
    expect(result.sparql).toEqual([]);
    expect(events.filter((e) => e.type === "sparql")).toEqual([]);
    expect(kg.calls).not.toHaveBeenCalled();
    expect(llm.calls.map((c) => c.role)).toEqual(["baseline"]);
    expect(result.stats).toMatchObject({ llmCalls: 1, queries: 0 });
    expect(events.map((e) => e.type)).toEqual(["stage-start", "llm-call", "stage-end"]);
    const end = events.find((e) => e.type === "stage-end");
    expect(end && "summary" in end ? end.summary : "").toMatch(/own knowledge \(no KG\).*Rowling/);
  });

  it("maps counts and yes/no answers", async () => {
    const count = await ask("How many Harry Potter novels are there?", { baseline: [{ answers: [7], type: "count" }] });
    expect(count.result.answer).toEqual({ kind: "count", count: 7 });
    const yes = await ask("Is Rowling British?", { baseline: [{ answers: ["Yes"], type: "boolean" }] });
    expect(yes.result.answer).toEqual({ kind: "boolean", value: true });
    const no = await ask("Did Tolkien write Harry Potter?", { baseline: [{ answers: [false], type: "boolean" }] });
    expect(no.result.answer).toEqual({ kind: "boolean", value: false });
  });

  it("an empty list is 'no answer', not a guess", async () => {
    const { result } = await ask("Who was the third founder?", { baseline: [{ answers: [], type: "list" }] });
    expect(result.answer.kind).toBe("none");
    expect(result.source).toBe("none");
  });

  it("retries a malformed reply with the reason, then answers", async () => {
    const { result, llm, events } = await ask("How many films?", {
      baseline: [{ answers: ["several"], type: "count" }, (m) => (m.at(-1)?.text.includes('type "count" needs exactly one entry') ? { answers: ["8"], type: "count" } : "unexpected prompt")],
    });
    expect(result.answer).toEqual({ kind: "count", count: 8 });
    expect(llm.calls).toHaveLength(2);
    const calls = events.flatMap((e) => (e.type === "llm-call" ? [e.call] : []));
    expect(calls[0].validationError).toMatch(/count/);
    expect(calls[1].validationError).toBeUndefined();
  });

  it("fails clearly after θ unusable replies", async () => {
    const { result, llm } = await ask("Who?", { baseline: ["I am not sure.", { answers: ["yes", "no"], type: "boolean" }] }, { config: { theta: 2 } });
    expect(llm.calls).toHaveLength(2);
    expect(result.source).toBe("failed");
    expect(result.error).toMatchObject({ code: "pipeline_failed", stage: "answer" });
    expect(result.error?.message).toMatch(/no usable answer.*2 time/);
  });

  it("sees the dialogue (questions and answers) in multi-turn mode only", async () => {
    const dialogue: DialogueTurn[] = [
      { question: "Who wrote Harry Potter?", answer: { kind: "items", items: [{ type: "uri", value: "http://ex.org/JKR", label: "J. K. Rowling" }] } },
    ];
    const seen: string[] = [];
    const reply = (m: { text: string }[]) => (seen.push(m.map((x) => x.text).join("\n")), { answers: ["1965-07-31"], type: "list" });
    await ask("When was she born?", { baseline: [reply] }, { dialogue });
    await ask("When was she born?", { baseline: [reply] }, { dialogue, config: { mode: "single" } });
    expect(seen[0]).toMatch(/Q1: Who wrote Harry Potter\?\nA1: J\. K\. Rowling/);
    expect(seen[0]).toMatch(/Question: When was she born\?/);
    expect(seen[1]).not.toMatch(/Q1:/);
  });
});
