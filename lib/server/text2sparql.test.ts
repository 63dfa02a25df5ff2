// The returned query's text, and the parameter checks, as the TEXT2SPARQL client sees them.
import { describe, expect, it } from "vitest";
import { finalQueryText, noQuery, TEXT2SPARQL_ROW_LIMIT, validateParams } from "./text2sparql";

describe("finalQueryText", () => {
  it("declares well-known and KG prefixes the query uses, keeping its own", () => {
    const q = finalQueryText("SELECT ?x WHERE { ?x rdfs:label ?l ; ex:p ?y }", { ex: "http://example.org/" });
    expect(q).toMatch(/PREFIX rdfs: <http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#>/);
    expect(q).toMatch(/PREFIX ex: <http:\/\/example\.org\/>/);
    const own = finalQueryText("PREFIX ex: <http://other.org/>\nSELECT ?x WHERE { ?x ex:p ?y }", { ex: "http://example.org/" });
    expect(own).not.toContain("http://example.org/");
  });

  it("drops only the LIMIT the checks added, never the question's own", () => {
    expect(finalQueryText(`SELECT ?x WHERE { ?x ?p ?o } LIMIT ${TEXT2SPARQL_ROW_LIMIT}`, {})).not.toMatch(/LIMIT/i);
    expect(finalQueryText("SELECT ?x WHERE { ?x ?p ?o } ORDER BY ?x LIMIT 5", {})).toMatch(/LIMIT 5/);
  });

  it("a query that does not parse is returned as written, and 'no query' still parses", () => {
    expect(finalQueryText("SELECT ?x WHERE { ?x", {})).toBe("SELECT ?x WHERE { ?x");
    expect(finalQueryText(noQuery("the budget ended"), {})).toMatch(/^# no query found: the budget ended\nSELECT/);
  });
});

describe("validateParams", () => {
  it("reads URL-encoded values and reports missing or empty ones as FastAPI does", () => {
    expect(validateParams(new URLSearchParams("question=Wer+ist%3F&dataset=https%3A%2F%2Fx%2F"))).toEqual({ ok: true, question: "Wer ist?", dataset: "https://x/" });
    const r = validateParams(new URLSearchParams("question=%20"));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.body.detail.map((d) => [d.type, d.loc.join(".")])).toEqual([["string_too_short", "query.question"], ["missing", "query.dataset"]]);
  });
});
