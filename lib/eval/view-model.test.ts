import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runResultSchema, type QuestionRecord, type RunResult } from "./result-schema";
import {
  compareRuns,
  countHistogram,
  distinct,
  f1ByType,
  filterAndSort,
  formatDelta,
  formatMs,
  localName,
  pickMode,
  questionRows,
  questionsOfMode,
  shortAnswer,
  stageMsByType,
} from "./view-model";

const load = (name: string): RunResult => runResultSchema.parse(JSON.parse(readFileSync(`test/fixtures/eval/${name}`, "utf8")));
const A = load("run-a.json");
const B = load("run-b.json");
const qa = questionsOfMode(A, "single");

describe("f1ByType", () => {
  it("macro F1 per type over all scored questions and over answered ones only", () => {
    const t = f1ByType(qa);
    expect(t.map((x) => x.type)).toEqual(["factoid", "count", "boolean"]);
    const factoid = t[0];
    // 1, 1, 6/7 (3 of 4 founders), 0 (no answer), 1, 1
    expect(factoid.n).toBe(6);
    expect(factoid.answered).toBe(5);
    expect(factoid.f1All).toBeCloseTo((4 + 6 / 7) / 6, 6);
    expect(factoid.f1Answered).toBeCloseTo((4 + 6 / 7) / 5, 6);
    // 8 right, 12 instead of 7, a linking failure
    expect(t[1]).toMatchObject({ type: "count", n: 3, answered: 2 });
    expect(t[1].f1All).toBeCloseTo(1 / 3, 6);
    expect(t[1].f1Answered).toBeCloseTo(0.5, 6);
    expect(t[2]).toMatchObject({ type: "boolean", n: 2, f1All: 1, f1Answered: 1 });
  });

  it("agrees with the runner's own per-type summary", () => {
    const byType = A.summary.modes[0].byType;
    for (const t of f1ByType(qa)) {
      expect(t.f1All).toBeCloseTo(byType[t.type].all.f1, 9);
      expect(t.f1Answered).toBeCloseTo(byType[t.type].answeredOnly.f1, 9);
    }
  });

  it("leaves out unscored questions (no gold) and types with none scored", () => {
    const unscored: QuestionRecord = { ...qa[0], key: "single:x", id: "x", type: "count", gold: null, metrics: null, failure: null };
    const t = f1ByType([qa[0], unscored]);
    expect(t).toHaveLength(1);
    expect(t[0]).toMatchObject({ type: "factoid", n: 1 });
  });
});

describe("stageMsByType", () => {
  it("sums stages into understanding / linking / execution / answer and averages per question of the type", () => {
    const boolean = stageMsByType(qa).find((s) => s.type === "boolean")!;
    expect(boolean.n).toBe(2);
    expect(boolean.ms.understanding).toBe((1500 + 1550) / 2);
    expect(boolean.ms.linking).toBe((380 + 450 + 400 + 470) / 2);
    expect(boolean.ms.execution).toBe((600 + 640) / 2);
    expect(boolean.ms.answer).toBe(0);
  });

  it("separate classify/rephrase/qir calls all count as understanding", () => {
    const qb = questionsOfMode(B, "single");
    const rec = qb.find((q) => q.id === "demo:q-ask-london")!;
    expect(Object.keys(rec.trace.stageMs)).toEqual(expect.arrayContaining(["classify", "rephrase", "qir"]));
    const [only] = stageMsByType([rec]);
    expect(only.ms.understanding).toBe(3500);
  });

  it("a failed question counts with the stages it reached (a type's total matches its questions' stage time)", () => {
    const count = stageMsByType(qa).find((s) => s.type === "count")!;
    const total = Object.values(count.ms).reduce((a, b) => a + b, 0) * count.n;
    const expected = qa.filter((q) => q.type === "count").reduce((s, q) => s + Object.values(q.trace.stageMs).reduce((a, b) => a + (b ?? 0), 0), 0);
    expect(total).toBeCloseTo(expected, 6);
  });
});

describe("countHistogram", () => {
  it("one bin per value from min to max, empty bins kept", () => {
    expect(countHistogram(qa.map((q) => q.trace.llmCalls)).map((b) => [b.label, b.count])).toEqual([
      ["3", 1],
      ["4", 6],
      ["5", 3],
      ["6", 1],
    ]);
    expect(countHistogram([1, 4]).map((b) => b.count)).toEqual([1, 0, 0, 1]);
  });
  it("wide ranges get equal-width bins and every value lands in one", () => {
    const values = Array.from({ length: 100 }, (_, i) => i);
    const bins = countHistogram(values, 10);
    expect(bins).toHaveLength(10);
    expect(bins[0].label).toBe("0–9");
    expect(bins.reduce((a, b) => a + b.count, 0)).toBe(100);
  });
  it("no values, no bins", () => {
    expect(countHistogram([])).toEqual([]);
  });
});

describe("compareRuns", () => {
  const c = compareRuns(A, B);

  it("metric deltas are B − A, and 'better' respects the direction of each metric", () => {
    const f1 = c.metrics.find((m) => m.key === "f1All")!;
    expect(f1.a).toBeCloseTo(A.summary.modes[0].macro.all.f1, 9);
    expect(f1.delta).toBeCloseTo(B.summary.modes[0].macro.all.f1 - A.summary.modes[0].macro.all.f1, 9);
    expect(f1.better).toBe("a"); // 0.709 < 0.714
    const ms = c.metrics.find((m) => m.key === "meanMs")!;
    expect(ms.delta!).toBeGreaterThan(0); // B is slower (separate context calls, one 60 s timeout)
    expect(ms.better).toBe("a"); // less time is better
  });

  it("per-type F1 side by side", () => {
    expect(c.byType.map((t) => t.type)).toEqual(["factoid", "count", "boolean"]);
    const boolean = c.byType.find((t) => t.type === "boolean")!;
    expect(boolean).toMatchObject({ a: 1, b: 0.5, delta: -0.5 });
    expect(c.byType[1].b).toBeCloseTo(2 / 3, 9);
  });

  it("per-question wins and losses from B's point of view", () => {
    const outcome = Object.fromEntries(c.questions.map((q) => [q.id, q.outcome]));
    expect(outcome["demo:q-founders-warner"]).toBe("win");
    expect(outcome["demo:q-two-hop"]).toBe("win");
    expect(outcome["demo:q-count-books"]).toBe("win");
    expect(outcome["demo:q-dumbledore"]).toBe("loss");
    expect(outcome["demo:q-german"]).toBe("loss");
    expect(outcome["demo:q-ask-rowling-director"]).toBe("loss");
    expect(outcome["demo:q-count-columbus"]).toBe("tie"); // both 0
    expect(c.tally).toMatchObject({ win: 3, loss: 3, tie: 5, "only-a": 0, "only-b": 0 });
  });

  it("questions only one run has are reported as such", () => {
    const shorter: RunResult = { ...B, questions: B.questions.slice(1) };
    const extra: QuestionRecord = { ...B.questions[0], key: "single:new", id: "new" };
    const c2 = compareRuns(A, { ...shorter, questions: [...shorter.questions, extra] });
    expect(c2.tally["only-a"]).toBe(1);
    expect(c2.tally["only-b"]).toBe(1);
    expect(c2.questions.at(-1)).toMatchObject({ id: "new", f1A: null, outcome: "only-b" });
  });

  it("a mode the other run lacks gives no deltas rather than wrong ones", () => {
    const dialogueOnly: RunResult = { ...B, summary: { ...B.summary, modes: [{ ...B.summary.modes[0], mode: "dialogue" }] } };
    const f1 = compareRuns(A, dialogueOnly).metrics.find((m) => m.key === "f1All")!;
    expect(f1.b).toBeNull();
    expect(f1.delta).toBeNull();
    expect(f1.better).toBeNull();
  });
});

describe("rows, filters and formatting", () => {
  const rows = questionRows(qa);

  it("a row per question with short answer and gold, cost and failure reason", () => {
    const founders = rows.find((r) => r.id === "demo:q-founders-warner")!;
    expect(founders.answer).toBe("Harry Warner, Albert Warner, Sam Warner");
    expect(founders.gold).toBe("Harry Warner, Albert Warner, Sam Warner +1 more");
    expect(founders.failure).toBe("partial-answer");
    expect(founders.precision).toBe(1);
    expect(founders.recall).toBe(0.75);
    const failed = rows.find((r) => r.id === "demo:q-count-columbus")!;
    expect(failed).toMatchObject({ answer: "—", gold: "2", failure: "linking", f1: 0, queries: 0 });
    expect(failed.error).toContain("Chris Columbus");
    expect(rows.find((r) => r.id === "demo:fig1-t1")!.failure).toBe("ok");
  });

  it("filters by type and failure reason, sorts numerically both ways", () => {
    expect(filterAndSort(rows, { type: "count" }, "id", "asc").map((r) => r.id)).toEqual([
      "demo:q-count-books",
      "demo:q-count-columbus",
      "demo:q-count-films",
    ]);
    expect(filterAndSort(rows, { failure: "ok" }, "id", "asc")).toHaveLength(7);
    const byMs = filterAndSort(rows, {}, "ms", "desc").map((r) => r.ms);
    expect(byMs).toEqual([...byMs].sort((a, b) => b - a));
    const byF1 = filterAndSort(rows, {}, "f1", "asc");
    expect(byF1[0].f1).toBe(0);
    expect(distinct(rows, "failure")).toEqual(expect.arrayContaining(["ok", "partial-answer", "empty-kg-answer", "wrong-answer", "linking"]));
  });

  it("unscored rows sort last in both directions", () => {
    const r2 = [{ ...rows[0], key: "u", f1: null }, ...rows.slice(1, 3)];
    expect(filterAndSort(r2, {}, "f1", "asc").at(-1)!.key).toBe("u");
    expect(filterAndSort(r2, {}, "f1", "desc").at(-1)!.key).toBe("u");
  });

  it("answer kinds read as short text", () => {
    expect(shortAnswer({ kind: "boolean", value: false })).toBe("no");
    expect(shortAnswer({ kind: "count", count: 8 })).toBe("8");
    expect(shortAnswer({ kind: "none", reason: "x" })).toBe("(no answer in the KG)");
    expect(shortAnswer({ kind: "clarify", text: "which?" })).toBe("(asked to clarify)");
    expect(shortAnswer(null)).toBe("—");
    const row = (n: number) => [{ type: "uri" as const, value: `http://example.org/r/P_${n}` }, n === 2 ? null : { type: "literal" as const, value: `${n}` }];
    expect(shortAnswer({ kind: "table", columns: ["person", "age"], rows: [row(1), row(2), row(3)] })).toBe("[3 × person, age] P 1 | 1; P 2 | — +1 more rows");
    expect(shortAnswer({ kind: "table", columns: ["a", "b"], rows: [] })).toBe("(empty table: a, b)");
    expect(localName("http://example.org/r/Caf%C3%A9_de_Flore")).toBe("Café de Flore");
  });

  it("formats deltas with a sign and the metric's unit", () => {
    expect(formatDelta(0.0523, "score")).toBe("+0.052");
    expect(formatDelta(-1500, "ms")).toBe("−1500 ms");
    expect(formatDelta(-12_000, "ms")).toBe("−12.0 s");
    expect(formatDelta(0, "count")).toBe("±0");
    expect(formatDelta(null, "score")).toBe("—");
    expect(formatMs(999.6)).toBe("1000 ms");
  });

  it("pickMode falls back to the run's first mode", () => {
    expect(pickMode(A, "dialogue")).toBe("single");
    expect(pickMode(A, null)).toBe("single");
  });
});

describe("filterAndSort without a sort key", () => {
  it("keeps the run's order", () => {
    const rows = questionRows(qa);
    expect(filterAndSort(rows, { type: "boolean" }, null, "desc").map((r) => r.id)).toEqual(["demo:q-ask-london", "demo:q-ask-rowling-director"]);
    expect(filterAndSort(rows, {}, null, "asc").map((r) => r.key)).toEqual(rows.map((r) => r.key));
  });
});
