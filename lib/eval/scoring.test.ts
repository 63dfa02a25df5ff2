// Choosing a scoring: the same answer scored by the item metrics and by the official TEXT2SPARQL rules.
import { describe, expect, it } from "vitest";
import type { Answer } from "@/lib/pipeline/types";
import { defaultScoring, scoreAnswer } from "./scoring";
import type { GoldAnswer } from "./types";

const uri = (v: string) => ({ type: "uri" as const, value: `http://x/${v}` });
const lit = (value: string, datatype?: string) => ({ type: "literal" as const, value, ...(datatype ? { datatype } : {}) });

describe("scoreAnswer", () => {
  it("differs where the rules differ: empty gold, lexical numbers", () => {
    const none: Answer = { kind: "none", reason: "x" };
    const empty: GoldAnswer = { kind: "items", items: [] };
    expect(scoreAnswer(none, empty, { scoring: "items" }).f1).toBe(1);
    expect(scoreAnswer(none, empty, { scoring: "text2sparql" }).f1).toBe(0);
    const decimal: Answer = { kind: "items", items: [lit("3.0", "http://www.w3.org/2001/XMLSchema#decimal")] };
    const three: GoldAnswer = { kind: "items", items: [lit("3")] };
    expect(scoreAnswer(decimal, three, { scoring: "items" }).f1).toBe(1);
    expect(scoreAnswer(decimal, three, { scoring: "text2sparql" }).f1).toBe(0);
    expect(scoreAnswer(decimal, three, { scoring: "text2sparql", comparison: "numeric" }).f1).toBe(1);
  });

  it("text2sparql: ndcg only for RESULT_ORDER_MATTERS; ranking scores over the system's order", () => {
    const answer: Answer = { kind: "table", columns: ["p", "n"], rows: [[uri("x"), lit("Ann")], [uri("y"), lit("Bo")]] };
    const gold: GoldAnswer = { kind: "items", items: [lit("Ann"), lit("Bo")] };
    const plain = scoreAnswer(answer, gold, { scoring: "text2sparql" });
    expect(plain).toMatchObject({ precision: 0.5, recall: 1, answered: true, p1: 0, rr: 0.5, hit5: 1 });
    expect(plain.ndcg).toBeUndefined();
    expect(scoreAnswer(answer, gold, { scoring: "text2sparql", features: ["RESULT_ORDER_MATTERS"] }).ndcg).toBeGreaterThan(0);
  });

  it("defaults to the official scoring for TEXT2SPARQL datasets only", () => {
    expect(defaultScoring("ck25")).toBe("text2sparql");
    expect(defaultScoring("jsonl")).toBe("items");
  });
});
