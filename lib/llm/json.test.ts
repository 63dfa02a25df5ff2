import { describe, expect, it } from "vitest";
import { extractJson } from "@/lib/llm/json";

describe("extractJson", () => {
  it("parses bare JSON", () => {
    expect(extractJson('{"a":1}')).toMatchObject({ ok: true, value: { a: 1 } });
    expect(extractJson(' [1, 2] ')).toMatchObject({ ok: true, value: [1, 2] });
  });

  it("parses fenced JSON with prose around it", () => {
    const text = 'Sure! Here is the result:\n```json\n{"triples": [["?x", "author", "Dune"]]}\n```\nLet me know.';
    expect(extractJson(text)).toMatchObject({ ok: true, value: { triples: [["?x", "author", "Dune"]] } });
  });

  it("finds JSON inside prose, skipping stray braces and reasoning blocks", () => {
    expect(extractJson('The set {x} is empty, so: {"answer": "none"} done.')).toMatchObject({ ok: true, value: { answer: "none" } });
    expect(extractJson('<think>maybe {"a":2}?</think>{"a":3}')).toMatchObject({ ok: true, value: { a: 3 } });
  });

  it("keeps braces inside strings", () => {
    expect(extractJson('{"q": "SELECT ?x WHERE { ?x ?p \\"}\\" }"}')).toMatchObject({ ok: true, value: { q: 'SELECT ?x WHERE { ?x ?p "}" }' } });
  });

  it("tolerates trailing commas", () => {
    expect(extractJson('{"a": [1, 2,], "b": 3,}')).toMatchObject({ ok: true, value: { a: [1, 2], b: 3 } });
    expect(extractJson('{"a": "x,}"}')).toMatchObject({ ok: true, value: { a: "x,}" } });
  });

  it("explains when there is no JSON", () => {
    expect(extractJson("I cannot answer that.")).toEqual({ ok: false, reason: "no JSON object or array found in the output" });
    expect(extractJson("   ")).toMatchObject({ ok: false, reason: expect.stringContaining("empty") });
    expect(extractJson('[1]', { expect: "object" })).toMatchObject({ ok: false, reason: "no JSON object found in the output" });
  });

  it("reports syntax errors with a position and does not return a nested value of a broken object", () => {
    const r = extractJson("Answer: {'vertex': 'Dune', \"inner\": {\"b\": 1}}");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/^JSON syntax error at position 1: .*near/);
  });

  it("reports truncated output", () => {
    const r = extractJson('{"a": {"b": 1}, "c": [1, 2');
    expect(r).toMatchObject({ ok: false, reason: expect.stringContaining("never closed") });
  });
});
