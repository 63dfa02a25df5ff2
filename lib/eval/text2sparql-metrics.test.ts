// The official TEXT2SPARQL scoring reproduced: flattening, pytrec_eval set measures (empty gold, ASK, collisions),
// trec_eval ndcg with its tie order, and the official averages (with set_F_ndcg's extra term).
import { describe, expect, it } from "vitest";
import type { Answer } from "@/lib/pipeline/types";
import { averageText2Sparql, compareKey, flatOf, scoreText2Sparql, valuesOf } from "./text2sparql-metrics";

const set = (...values: string[]) => Object.fromEntries(values.map((v) => [v, 1]));
const uri = (value: string) => ({ type: "uri" as const, value });
const lit = (value: string, datatype?: string) => ({ type: "literal" as const, value, ...(datatype ? { datatype } : {}) });

describe("flatOf", () => {
  it("takes every value string of every cell, drops datatypes, and lets an IRI and a literal with the same text collide", () => {
    const table: Answer = { kind: "table", columns: ["p", "name"], rows: [[uri("http://x/a"), lit("Ann")], [uri("http://x/b"), null], [lit("http://x/a"), lit("3", "xsd:integer")]] };
    expect(flatOf(table)).toEqual(set("http://x/a", "Ann", "http://x/b", "3"));
    expect(valuesOf(table)).toEqual(["http://x/a", "Ann", "http://x/b", "3"]);
  });

  it("ASK → {true: 1|0}; a count is its number; no answer is empty", () => {
    expect(flatOf({ kind: "boolean", value: false })).toEqual({ true: 0 });
    expect(flatOf({ kind: "count", count: 12 })).toEqual(set("12"));
    expect(flatOf({ kind: "none", reason: "x" })).toEqual({});
    expect(flatOf(null)).toEqual({});
  });
});

describe("scoreText2Sparql (pytrec_eval set measures)", () => {
  it("P = relevant retrieved / retrieved, R = / relevant, F = harmonic mean", () => {
    // the CK25 q10 case: ?person ?name returned, the gold holds the names only
    const s = scoreText2Sparql(set("http://x/p1", "Ann", "http://x/p2", "Bo"), set("Ann", "Bo"));
    expect(s).toEqual({ precision: 0.5, recall: 1, f1: 2 / 3 });
  });

  it("an empty gold gives 0 on every measure for every system, empty or not", () => {
    expect(scoreText2Sparql({}, {})).toEqual({ precision: 0, recall: 0, f1: 0 });
    expect(scoreText2Sparql(set("a"), {})).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it("an empty answer against a gold gives 0", () => {
    expect(scoreText2Sparql({}, set("a"))).toEqual({ precision: 0, recall: 0, f1: 0 });
  });

  it("ASK: gold true is matched by any ASK answer (the key 'true' is retrieved either way); gold false has nothing relevant", () => {
    expect(scoreText2Sparql({ true: 1 }, { true: 1 }).f1).toBe(1);
    expect(scoreText2Sparql({ true: 0 }, { true: 1 }).f1).toBe(1);
    expect(scoreText2Sparql({ true: 0 }, { true: 0 }).f1).toBe(0);
    expect(scoreText2Sparql(set("x"), { true: 1 }).f1).toBe(0);
  });

  it("compares exact value strings by default: '3' ≠ '3.0'; numeric comparison makes them equal", () => {
    expect(scoreText2Sparql(set("3.0"), set("3")).f1).toBe(0);
    expect(scoreText2Sparql(set("3.0"), set("3"), { comparison: "numeric" }).f1).toBe(1);
    expect(compareKey("+49-6200-1", "numeric")).toBe("+49-6200-1");
    expect(compareKey("0.50", "numeric")).toBe("0.5");
  });

  it("ndcg only where order matters: DCG of the correct values at trec_eval's ranks over the ideal of |gold|", () => {
    // IIS-Q on CK25 q37: 1 of 19 gold values returned (and nothing else): 1 / IDCG(19) = 0.1468
    const gold = set(...Array.from({ length: 19 }, (_, i) => `v${i}`));
    expect(scoreText2Sparql(set("v3"), gold, { orderMatters: true }).ndcg).toBeCloseTo(0.1467868763787456, 12);
    expect(scoreText2Sparql(set("v3"), gold).ndcg).toBeUndefined();
    expect(scoreText2Sparql({}, {}, { orderMatters: true }).ndcg).toBe(0);
  });

  it("ranks tied values by docno descending (strcmp), so a wrong value sorting last costs less", () => {
    const gold = set("b", "c");
    // run order is irrelevant: "c" > "b" > "a" descending → c (1), b (1), a (0): perfect DCG
    expect(scoreText2Sparql(set("a", "b", "c"), gold, { orderMatters: true }).ndcg).toBeCloseTo(1, 12);
    // "z" sorts first descending → ranks z (0), c (1), b (1)
    const expected = (1 / Math.log2(3) + 1 / Math.log2(4)) / (1 + 1 / Math.log2(3));
    expect(scoreText2Sparql(set("b", "c", "z"), gold, { orderMatters: true }).ndcg).toBeCloseTo(expected, 12);
    // UTF-8 byte order, not JS (UTF-16) string order: "😀" (F0 9F …) sorts above "｡" (U+FF61, EF BD A1), though "\uFF61" > "\uD83D"
    expect("｡" > "😀").toBe(true);
    expect(scoreText2Sparql(set("｡", "😀"), set("｡"), { orderMatters: true }).ndcg).toBeCloseTo(1 / Math.log2(3), 12);
  });
});

describe("averageText2Sparql", () => {
  it("averages over all questions; set_F_ndcg takes ndcg where present and the mean ndcg as one more term", () => {
    // 50 questions, one of them F1 1: LABIC's official 0.02 / 0.0196 (= 1 / 51)
    const scores = [{ precision: 1, recall: 1, f1: 1 }, ...Array.from({ length: 47 }, () => ({ precision: 0, recall: 0, f1: 0 }))];
    const withOrder = [...scores, { precision: 0, recall: 0, f1: 0, ndcg: 0 }, { precision: 0, recall: 0, f1: 0, ndcg: 0 }];
    const avg = averageText2Sparql(withOrder);
    expect(avg.f1).toBeCloseTo(0.02, 12);
    expect(avg.ndcg).toBe(0);
    expect(avg.f1Ndcg).toBeCloseTo(0.0196078431372549, 12);
    expect(averageText2Sparql(scores).f1Ndcg).toBeUndefined();
  });
});
