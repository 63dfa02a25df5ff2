import { describe, expect, it } from "vitest";
import type { QuestionRecord } from "@/lib/eval/result-schema";
import { differingQuestions, formatCeilingRow, stagePercentiles } from "./ceilings";

const q = (id: string, f1: number | null, failure: QuestionRecord["failure"] = null) => ({ id, metrics: f1 === null ? null : { f1 }, failure }) as unknown as QuestionRecord;

describe("ceilings bench", () => {
  it("lists every question whose F1 differs between the embedded and the endpoint run, with both failure kinds", () => {
    const embedded = [q("ck25:1", 1), q("ck25:2", 1), q("ck25:3", 0, "linking"), q("ck25:4", 1)];
    const endpoint = [q("ck25:1", 1), q("ck25:2", 0.5, "partial-answer"), q("ck25:3", 0, "linking")];
    expect(differingQuestions(embedded, endpoint)).toEqual([
      { id: "ck25:2", embedded: 1, endpoint: 0.5, failure: "right / partial-answer" },
      { id: "ck25:4", embedded: 1, endpoint: 0, failure: "right / missing" },
    ]);
  });

  it("prints both figures, the gap and the differing questions", () => {
    const run = (f1: number, timedOut = 0) => ({ f1, timedOut, cut: timedOut, p50Ms: 74.4, p95Ms: 636, stageMs: { explore: [60.2, 540.7] as [number, number] }, questions: [] });
    const text = formatCeilingRow({ strategy: "explorer", embedded: run(86.4), endpoint: run(83.1, 1), differing: [{ id: "ck25:50", embedded: 1, endpoint: 0.5, failure: "right / partial-answer" }] });
    expect(text).toBe(
      "explorer: embedded F1 86.4, 0 timed-out turns, 0 with KG calls cut, turn p50/p95 74/636 ms | endpoint F1 83.1, 1 timed-out turns, 1 with KG calls cut, turn p50/p95 74/636 ms | gap 3.3 points\n  endpoint stage p50/p95 ms: explore 60/541\n  ck25:50: F1 1.000 → 0.500 (right / partial-answer)",
    );
  });

  it("gives each stage's p50/p95 over the questions that ran it", () => {
    const t = (stageMs: Record<string, number>) => ({ id: "x", metrics: null, failure: null, trace: { stageMs } }) as unknown as QuestionRecord;
    expect(stagePercentiles([t({ plan: 10, explore: 100 }), t({ plan: 30 }), t({ plan: 20, explore: 300 })])).toEqual({ plan: [20, 30], explore: [100, 300] });
  });
});
