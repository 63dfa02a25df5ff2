import { describe, expect, it } from "vitest";
import type { Answer, TurnStats } from "@/lib/pipeline/types";
import { answerKeys, breakdown, costSummary, failureReason, itemKey, macro, retention, scoreQuestion } from "./metrics";
import type { GoldAnswer } from "./types";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const uri = (v: string) => ({ type: "uri" as const, value: `http://ex.org/${v}` });
const lit = (value: string, extra: { datatype?: string; lang?: string } = {}) => ({ type: "literal" as const, value, ...extra });
const items = (...xs: ReturnType<typeof uri | typeof lit>[]): Answer => ({ kind: "items", items: xs });
const gold = (...xs: ReturnType<typeof uri | typeof lit>[]): GoldAnswer => ({ kind: "items", items: xs });

describe("itemKey / answerKeys", () => {
  it("compares IRIs as IRIs, never equal to a literal with the same text", () => {
    expect(itemKey(uri("a"))).toBe("<http://ex.org/a>");
    expect(itemKey(lit("http://ex.org/a"))).not.toBe(itemKey(uri("a")));
  });
  it("normalises numbers by value across datatypes and plain text", () => {
    const keys = [lit("3"), lit("3.0", { datatype: `${XSD}decimal` }), lit("3", { datatype: `${XSD}int` }), lit(" 3e0 ", { datatype: `${XSD}double` })].map(itemKey);
    expect(new Set(keys)).toEqual(new Set(["n:3"]));
    expect(itemKey(lit("+49-6200-33069465"))).toBe("s:+49-6200-33069465");
  });
  it("normalises dates by lexical date, strings trimmed with case and without language", () => {
    expect(itemKey(lit("1965-08-01T00:00:00Z", { datatype: `${XSD}dateTime` }))).toBe(itemKey(lit("1965-08-01", { datatype: `${XSD}date` })));
    expect(itemKey(lit("1965-08-01"))).toBe("d:1965-08-01");
    expect(itemKey(lit(" Paris ", { lang: "en" }))).toBe(itemKey(lit("Paris")));
    expect(itemKey(lit("paris"))).not.toBe(itemKey(lit("Paris")));
    expect(itemKey(lit("Vancouver", { datatype: "http://www.w3.org/1999/02/22-rdf-syntax-ns#langString" }))).toBe("s:Vancouver");
  });
  it("turns counts and booleans into single keys and 'no answer' kinds into none", () => {
    expect(answerKeys({ kind: "count", count: 7 })).toEqual(["n:7"]);
    expect(answerKeys({ kind: "boolean", value: false })).toEqual(["b:false"]);
    expect(answerKeys({ kind: "none", reason: "empty" })).toEqual([]);
    expect(answerKeys({ kind: "chat", text: "hi" })).toEqual([]);
    expect(answerKeys(items(uri("a"), uri("a"), uri("b")))).toEqual(["<http://ex.org/a>", "<http://ex.org/b>"]);
  });
  it("takes every bound cell of a table, row by row, without repeats", () => {
    const table = { kind: "table" as const, columns: ["p", "n"], rows: [[uri("a"), lit("3")], [uri("b"), null], [uri("a"), lit("3.0")]] };
    expect(answerKeys(table)).toEqual(["<http://ex.org/a>", "n:3", "<http://ex.org/b>"]);
    expect(scoreQuestion(table, gold(lit("3"))).precision).toBeCloseTo(1 / 3);
  });
});

describe("scoreQuestion", () => {
  it("gives P=2/3, R=2/4, F1=4/7 for 2 of 3 returned values in a gold set of 4", () => {
    const s = scoreQuestion(items(uri("a"), uri("x"), uri("b")), gold(uri("a"), uri("b"), uri("c"), uri("d")));
    expect(s.precision).toBeCloseTo(2 / 3);
    expect(s.recall).toBeCloseTo(0.5);
    expect(s.f1).toBeCloseTo(4 / 7);
    expect(s).toMatchObject({ answered: true, p1: 1, rr: 1, hit5: 1 });
  });
  it("ranks by the system's order: first correct value at rank 3 gives P@1 0, MRR 1/3, Hit@5 1; at rank 6 Hit@5 is 0", () => {
    const g = gold(uri("g"));
    expect(scoreQuestion(items(uri("x"), uri("y"), uri("g")), g)).toMatchObject({ p1: 0, rr: 1 / 3, hit5: 1 });
    expect(scoreQuestion(items(uri("1"), uri("2"), uri("3"), uri("4"), uri("5"), uri("g")), g)).toMatchObject({ p1: 0, rr: 1 / 6, hit5: 0 });
    expect(scoreQuestion(items(uri("x")), g)).toMatchObject({ f1: 0, p1: 0, rr: 0, hit5: 0, answered: true });
  });
  it("empty gold: 1 when the system is also empty, 0 when it returned anything", () => {
    expect(scoreQuestion({ kind: "none", reason: "nothing" }, gold())).toMatchObject({ precision: 1, recall: 1, f1: 1, p1: 1, answered: false });
    expect(scoreQuestion(items(uri("a")), gold())).toMatchObject({ precision: 0, recall: 0, f1: 0, answered: true });
  });
  it("empty answer against non-empty gold: all 0 and not answered", () => {
    expect(scoreQuestion(null, gold(uri("a")))).toEqual({ precision: 0, recall: 0, f1: 0, answered: false, p1: 0, rr: 0, hit5: 0 });
    expect(scoreQuestion({ kind: "items", items: [] }, gold(uri("a"))).answered).toBe(false);
  });
  it("ASK: right boolean 1, wrong boolean 0, a list against a boolean 0", () => {
    expect(scoreQuestion({ kind: "boolean", value: true }, { kind: "boolean", value: true }).f1).toBe(1);
    expect(scoreQuestion({ kind: "boolean", value: false }, { kind: "boolean", value: true }).f1).toBe(0);
    expect(scoreQuestion(items(uri("a")), { kind: "boolean", value: true }).f1).toBe(0);
    // a boolean literal from a SELECT compares as a boolean
    expect(scoreQuestion(items(lit("true", { datatype: `${XSD}boolean` })), { kind: "boolean", value: true }).f1).toBe(1);
  });
  it("COUNT: the number matters, whether it came as a count or as a numeric item", () => {
    const g: GoldAnswer = { kind: "count", count: 12 };
    expect(scoreQuestion({ kind: "count", count: 12 }, g).f1).toBe(1);
    expect(scoreQuestion(items(lit("12", { datatype: `${XSD}integer` })), g).f1).toBe(1);
    expect(scoreQuestion({ kind: "count", count: 11 }, g).f1).toBe(0);
    expect(scoreQuestion({ kind: "count", count: 12 }, gold(lit("12.0", { datatype: `${XSD}decimal` }))).f1).toBe(1);
  });
});

describe("macro, retention, breakdown", () => {
  const right = scoreQuestion(items(uri("a")), gold(uri("a")));
  const half = scoreQuestion(items(uri("a"), uri("x")), gold(uri("a")));
  const none = scoreQuestion(null, gold(uri("a")));
  it("averages over all questions (unanswered = 0) and over answered ones, both labelled", () => {
    const m = macro([right, half, none]);
    expect(m.all.n).toBe(3);
    expect(m.all.precision).toBeCloseTo((1 + 0.5 + 0) / 3);
    expect(m.all.recall).toBeCloseTo(2 / 3);
    expect(m.all.f1).toBeCloseTo((1 + 2 / 3) / 3);
    expect(m.all.qaldF1).toBeCloseTo((2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3));
    expect(m.answeredOnly.n).toBe(2);
    expect(m.answeredOnly.f1).toBeCloseTo((1 + 2 / 3) / 2);
    expect(m.all.mrr).toBeCloseTo(2 / 3);
  });
  it("macro of nothing is zeros, not NaN", () => {
    expect(macro([]).all).toMatchObject({ n: 0, f1: 0, qaldF1: 0 });
  });
  it("retention is dialogue F1 over standalone F1", () => {
    expect(retention(0.4, 0.5)).toBeCloseTo(0.8);
    expect(retention(0.4, 0)).toBeNull();
  });
  it("breaks scores down by group; an item may be in several", () => {
    const b = breakdown(
      [
        { score: right, tags: ["COUNT", "GROUP"] },
        { score: none, tags: ["COUNT"] },
      ],
      (r) => r.tags,
    );
    expect(Object.keys(b)).toEqual(["COUNT", "GROUP"]);
    expect(b.COUNT.all).toMatchObject({ n: 2, f1: 0.5 });
    expect(b.GROUP.all).toMatchObject({ n: 1, f1: 1 });
  });
});

describe("costSummary and failureReason", () => {
  const stats = (ms: number, stageMs: TurnStats["stageMs"], tokensIn: number, tokensOut: number): TurnStats => ({
    ms,
    llmCalls: 2,
    tokensIn,
    tokensOut,
    queries: 3,
    stageMs,
  });
  it("groups stage latency, sums tokens and prices them per 1M tokens", () => {
    const c = costSummary(
      [stats(1000, { chat: 100, qir: 300, "entity-linking": 200, execution: 400 }, 1_000_000, 100_000), stats(500, { chat: 100, "relation-linking": 400 }, 0, 0)],
      { inputPerMTok: 0.15, outputPerMTok: 0.6 },
    );
    expect(c.meanMs).toBe(750);
    expect(c.meanStageGroupMs).toEqual({ understanding: 250, linking: 300, execution: 200, answer: 0 });
    expect(c.meanStageMs.chat).toBe(100);
    expect(c).toMatchObject({ llmCalls: 4, tokensIn: 1_000_000, tokensOut: 100_000, queries: 6, meanQueries: 3 });
    expect(c.cost).toBeCloseTo(0.15 + 0.06);
    expect(costSummary([]).cost).toBeNull();
  });
  it("attributes a failure to the stage group that failed, or to an empty KG answer", () => {
    const zero = scoreQuestion(null, gold(uri("a")));
    const fail = (stage?: "qir" | "entity-linking" | "query-selection" | "execution") => ({ source: "failed" as const, error: { code: "pipeline_failed", message: "x", stage } });
    expect(failureReason(fail("qir"), zero)).toBe("understanding");
    expect(failureReason(fail("entity-linking"), zero)).toBe("linking");
    expect(failureReason(fail("query-selection"), zero)).toBe("query-selection");
    expect(failureReason(fail("execution"), zero)).toBe("execution");
    expect(failureReason(fail(), zero)).toBe("error");
    expect(failureReason({ source: "none" }, zero)).toBe("empty-kg-answer");
    expect(failureReason({ source: "conversation" }, zero)).toBe("no-kg-route");
    expect(failureReason(null, zero)).toBe("error");
    expect(failureReason({ source: "kg" }, scoreQuestion(items(uri("x")), gold(uri("a"))))).toBe("wrong-answer");
    expect(failureReason({ source: "kg" }, scoreQuestion(items(uri("a"), uri("x")), gold(uri("a"))))).toBe("partial-answer");
    expect(failureReason({ source: "kg" }, scoreQuestion(items(uri("a")), gold(uri("a"))))).toBeNull();
  });
});
