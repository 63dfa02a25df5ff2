import { describe, expect, it } from "vitest";
import { failureReason, scoreQuestion } from "./metrics";
import { renderMarkdown } from "./report";
import type { QuestionRecord, RunResult } from "./result-schema";
import { summarizeMode } from "./summarize";

const IRI = "http://example.org/x";
function record(id: string, source: QuestionRecord["source"], right: boolean): QuestionRecord {
  const gold = { kind: "items" as const, items: [{ type: "uri" as const, value: IRI }] };
  const answer = source === "none" ? { kind: "none" as const, reason: "no" } : { kind: "items" as const, items: [{ type: "uri" as const, value: right ? IRI : `${IRI}/other` }] };
  const metrics = scoreQuestion(answer, gold);
  return {
    key: `single:${id}`,
    id,
    mode: "single",
    question: `q ${id}`,
    type: "factoid",
    features: ["f"],
    gold,
    answer,
    source,
    sparql: [],
    metrics,
    failure: failureReason({ source }, metrics),
    trace: { ms: 1, llmCalls: 1, tokensIn: 1, tokensOut: 1, queries: 0, stageMs: {} },
    finishedAt: "2026-01-01T00:00:00Z",
  };
}

describe("answers from the model's own knowledge in a run summary", () => {
  const records = [record("a", "kg", true), record("b", "llm", true), record("c", "llm", false), record("d", "none", false)];
  const s = summarizeMode("single", records);

  it("count as unanswered in every KG-grounded score, and are scored apart", () => {
    expect(s.answered).toBe(1);
    expect(s.macro.all).toMatchObject({ n: 4, f1: 0.25 });
    expect(s.macro.answeredOnly).toMatchObject({ n: 1, f1: 1 });
    expect(s.byFeature.f.all.f1).toBe(0.25);
    expect(s.modelKnowledge).toMatchObject({ questions: 2, macro: { all: { n: 2, f1: 0.5 } } });
    expect(s.failures).toEqual({ "model-knowledge": 2, "empty-kg-answer": 1 });
    // a run without such answers has no block at all
    expect(summarizeMode("single", [records[0]]).modelKnowledge).toBeUndefined();
  });

  it("are labelled not from the KG in summary.md", () => {
    const run = { version: 1, runId: "r", startedAt: "", finishedAt: "", complete: true, config: { dataset: "d", file: "f", kg: "k", modes: ["single"], limit: null, concurrency: 1, goldSource: "auto", prices: null, pipeline: {} }, strategy: { id: "triad", label: "Triad" }, llm: { provider: "p", model: "m" }, kg: { id: "k", name: "k", kind: "embedded" }, summary: { modes: [s], retention: null }, questions: records } as unknown as RunResult;
    const md = renderMarkdown(run);
    expect(md).toContain("### Answers from the model's own knowledge (not from the KG, scored separately)");
    expect(md).toMatch(/\| single:b \| q b \| 100\.0 \| \(not from the KG\) /);
  });
});
