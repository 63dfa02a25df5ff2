// The degenerate-answer filter: an example is kept only when its answer is non-empty, small and says something.
import { describe, expect, it } from "vitest";
import type { QueryResult } from "@/lib/kg/types";
import { judgeResult } from "./execute";
import type { Candidate } from "./frames";

const cand = (over: Partial<Candidate> = {}): Candidate => ({ shape: "with-value", frame: { kind: "with-value" }, sparql: "", run: "", mentions: [], ...over });
const rows = (vars: string[], values: string[][]): QueryResult => ({
  kind: "SELECT",
  head: { vars },
  results: { bindings: values.map((r) => Object.fromEntries(r.map((v, i) => [vars[i], { type: "literal" as const, value: v }]))) },
});

describe("the degenerate-answer filter", () => {
  it("drops an empty answer and one too big to be an example", () => {
    expect(judgeResult(cand(), rows(["x"], []), 10)).toEqual({ keep: false, reason: "empty answer" });
    expect(judgeResult(cand(), rows(["x"], Array.from({ length: 11 }, (_, i) => [`v${i}`])), 10)).toMatchObject({ keep: false, reason: expect.stringMatching(/too big/) });
    // a list may be longer
    expect(judgeResult(cand({ list: true }), rows(["x"], Array.from({ length: 11 }, (_, i) => [`v${i}`])), 10)).toMatchObject({ keep: true, answerSize: 11 });
  });

  it("drops a lone 0, an aggregate over nothing, and a filter that keeps every instance", () => {
    expect(judgeResult(cand({ frame: { kind: "count-with-value" } }), rows(["count"], [["0"]]), 10)).toEqual({ keep: false, reason: "a lone 0" });
    expect(judgeResult(cand(), { kind: "SELECT", head: { vars: ["avg"] }, results: { bindings: [{}] } }, 10)).toMatchObject({ keep: false, reason: expect.stringMatching(/aggregate over nothing/) });
    expect(judgeResult(cand({ unfiltered: 4 }), rows(["x"], [["a"], ["b"], ["c"], ["d"]]), 10)).toEqual({ keep: false, reason: "the filter keeps every instance" });
    expect(judgeResult(cand({ unfiltered: 4, frame: { kind: "count-filter" } }), rows(["count"], [["4"]]), 10)).toEqual({ keep: false, reason: "the filter keeps every instance" });
    expect(judgeResult(cand({ unfiltered: 4 }), rows(["x"], [["a"], ["b"]]), 10)).toMatchObject({ keep: true, answerSize: 2, preview: ["a", "b"] });
  });

  it("drops counts per group with one group, or one instance per group", () => {
    const group = cand({ shape: "count-per-group", frame: { kind: "count-per-group" } });
    expect(judgeResult(group, rows(["g", "count"], [["x", "5"]]), 10)).toEqual({ keep: false, reason: "one group only" });
    expect(judgeResult(group, rows(["g", "count"], [["x", "1"], ["y", "1"]]), 10)).toEqual({ keep: false, reason: "a group per instance" });
    expect(judgeResult(group, rows(["g", "count"], [["x", "2"], ["y", "1"]]), 10)).toMatchObject({ keep: true, answerSize: 2 });
  });

  it("keeps a yes/no answer and a count", () => {
    expect(judgeResult(cand({ shape: "yes-no" }), { kind: "ASK", head: {}, boolean: true }, 10)).toEqual({ keep: true, answerSize: 1, preview: ["yes"] });
    expect(judgeResult(cand({ frame: { kind: "count" } }), rows(["count"], [["7"]]), 10)).toEqual({ keep: true, answerSize: 1, preview: ["7"] });
  });
});
