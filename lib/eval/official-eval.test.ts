// A team's published evaluation read, and a replay's scores compared with it question by question.
import { describe, expect, it } from "vitest";
import { readOfficialEval, compareWithOfficial } from "./official-eval";
import type { QuestionRecord } from "./result-schema";

const FX = "test/fixtures/eval/official";

function record(id: string, metrics: QuestionRecord["metrics"]): QuestionRecord {
  return {
    key: `single:${id}`, id, mode: "single", question: id, type: "factoid", features: [], gold: null, answer: null, source: "kg", sparql: [],
    metrics, failure: null, trace: { ms: 1, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 1, stageMs: {} }, finishedAt: "2025-01-01T00:00:00Z",
  };
}
const score = (f1: number, ndcg?: number) => ({ precision: f1, recall: f1, f1, answered: f1 > 0, p1: 0, rr: 0, hit5: 0, ...(ndcg !== undefined ? { ndcg } : {}) });

describe("readOfficialEval", () => {
  it("reads per-question measures by item id and the average", () => {
    const e = readOfficialEval(`${FX}/team_eval.json`);
    expect([...e.perQuestion.keys()]).toEqual(["ex:1", "ex:2", "ex:3"]);
    expect(e.perQuestion.get("ex:2")).toEqual({ precision: 0.5, recall: 1, f1: 0.6666666666666666, ndcg: 0.75 });
    expect(e.average).toMatchObject({ f1: 0.5555555555555555, f1Ndcg: 0.625 });
  });

  it("names the file and the bad field of a malformed one", () => {
    expect(() => readOfficialEval(`${FX}/bad_eval.json`)).toThrow(/bad_eval\.json is not a TEXT2SPARQL evaluation file .*: ex:1-en\.set_P: Invalid input/);
  });
});

describe("compareWithOfficial", () => {
  it("counts questions with the same F1 (and ndcg where published) and lists the others", () => {
    const e = readOfficialEval(`${FX}/team_eval.json`);
    const c = compareWithOfficial([record("ex:1", score(1)), record("ex:2", score(0.6666666666666666, 0.5)), record("ex:3", null), record("other", score(1))], e);
    expect(c).toMatchObject({ compared: 3, equal: 1 });
    expect(c.differing.map((d) => [d.id, d.ours?.ndcg ?? null])).toEqual([["ex:2", 0.5], ["ex:3", null]]);
  });
});
