import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { summarizeRun } from "./summarize";
import { runResultSchema, type RunResult } from "./result-schema";
import { compareMany, goldShapeOf } from "./view-model-compare";

const load = (name: string): RunResult => runResultSchema.parse(JSON.parse(readFileSync(`test/fixtures/eval/${name}`, "utf8")));
const A = load("run-a.json");
const B = load("run-b.json");

/** A third run: B, but with two answers from the model's own knowledge (one of them right). */
function withModelAnswers(): RunResult {
  const questions = B.questions.map((q) =>
    q.id === "demo:fig1-t1" || q.id === "demo:q-german" ? { ...q, source: "llm" as const, failure: "model-knowledge" as const, metrics: q.id === "demo:q-german" ? { ...q.metrics!, f1: 1, precision: 1, recall: 1, answered: true } : q.metrics } : q,
  );
  return { ...B, runId: "run-c", strategy: { id: "triad", label: "Triad" }, questions, summary: summarizeRun(["single"], questions) };
}

describe("compareMany", () => {
  const c = compareMany([
    { ref: "a", result: A },
    { ref: "b", result: B },
    { ref: "c", result: withModelAnswers() },
  ]);

  it("lines up any number of runs: headline metrics with the best run marked, lower cost being better", () => {
    expect(c.runs.map((r) => r.label)).toEqual(["Chatty-KG · fixture-a", "Chatty-KG · fixture-b", "Triad · fixture-b"]);
    const f1 = c.metrics.find((m) => m.key === "f1All")!;
    expect(f1.values).toEqual([A.summary.modes[0].macro.all.f1, B.summary.modes[0].macro.all.f1, expect.any(Number)]);
    expect(f1.best).toEqual([f1.values.indexOf(Math.max(...(f1.values as number[])))]);
    const calls = c.metrics.find((m) => m.key === "meanLlmCalls")!;
    expect(calls.best).toEqual([calls.values.indexOf(Math.min(...(calls.values as number[])))]);
  });

  it("keeps answers from the model's own knowledge out of the KG-grounded F1 (per question, per type, overall), and counts them", () => {
    const german = c.questions.find((q) => q.id === "demo:q-german")!;
    expect(german.f1[2]).toBe(0);
    expect(german.fromModel).toEqual([false, false, true]);
    expect(c.metrics.find((m) => m.key === "modelKnowledge")!.values).toEqual([0, 0, 2]);
    const t1 = c.questions.find((q) => q.id === "demo:fig1-t1")!;
    expect(t1.f1).toEqual([1, 1, 0]);
    expect(t1.best).toEqual([0, 1]);
    const factoid = c.byType.find((t) => t.key === "factoid")!;
    expect(factoid.values[2]).toBeLessThan(factoid.values[1]!);
  });

  it("breaks F1 down by question type and by the gold query's shape", () => {
    expect(c.byType.map((t) => t.key)).toEqual(["factoid", "count", "boolean"]);
    // these fixture runs carry no gold SPARQL: tag their shapes as an oracle run does
    const SHAPE: Record<string, string> = { factoid: "bgp", count: "count", boolean: "ask" };
    const tagged = (r: RunResult): RunResult => ({ ...r, questions: r.questions.map((q) => ({ ...q, features: [`gold_shape:${SHAPE[q.type]}`] })) });
    const shaped = compareMany([{ ref: "a", result: tagged(A) }, { ref: "b", result: tagged(B) }]);
    expect(shaped.byShape.map((s) => s.key)).toEqual(["ask", "bgp", "count"]);
    expect(shaped.byShape.find((s) => s.key === "bgp")!.values).toEqual(shaped.byType.find((t) => t.key === "factoid")!.values);
    expect(c.byShape).toEqual([]);
  });
});

describe("goldShapeOf", () => {
  it("takes the oracle's tag, else reads the gold SPARQL, else nothing", () => {
    const q = A.questions[0];
    expect(goldShapeOf({ ...q, features: ["gold_shape:order"] })).toBe("order");
    expect(goldShapeOf({ ...q, features: [], goldSparql: "SELECT (COUNT(?x) AS ?n) WHERE { ?x <http://e/p> <http://e/o> }" })).toBe("count");
    expect(goldShapeOf({ ...q, features: [], goldSparql: undefined })).toBeNull();
  });
});
