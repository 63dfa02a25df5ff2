import { describe, expect, it } from "vitest";
import { PARSE_CACHE_SIZE, parseReadOnly } from "./sparql-guard";
import { isAppError } from "@/lib/errors";

function rejection(query: string) {
  try {
    parseReadOnly(query);
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error(`expected a rejection for: ${query}`);
}

describe("parseReadOnly", () => {
  it.each([
    ["SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", "SELECT"],
    ["ASK { ?s ?p ?o }", "ASK"],
    ["CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", "CONSTRUCT"],
    ["DESCRIBE <http://example.org/x>", "DESCRIBE"],
  ])("accepts %s", (query, kind) => {
    expect(parseReadOnly(query).kind).toBe(kind);
  });

  it.each([
    "DELETE WHERE { ?s ?p ?o }",
    "INSERT DATA { <http://a> <http://b> <http://c> }",
    "DROP ALL",
    "CLEAR DEFAULT",
    "LOAD <http://example.org/data.ttl>",
    "PREFIX ex: <http://example.org/> DELETE { ?s ?p ?o } WHERE { ?s ex:p ?o }",
  ])("refuses the update %s", (query) => {
    const e = rejection(query);
    expect(e.code).toBe("sparql_forbidden");
    expect(e.message).toMatch(/update/);
  });

  it("reports the line and column of a syntax error", () => {
    const e = rejection("SELECT ?s WHERE {\n  ?s ?p }");
    expect(e.code).toBe("sparql_syntax");
    expect(e.where?.line).toBe(2);
    expect(e.message).toMatch(/line 2/);
  });

  it("names an unknown prefix", () => {
    const e = rejection("SELECT * WHERE { ?s foo:bar ?o }");
    expect(e.code).toBe("sparql_syntax");
    expect(e.message).toMatch(/Unknown prefix: foo/);
  });

  it("declares undeclared well-known prefixes (rdfs:, xsd:, …) and returns the query as it runs; a syntax error still points into the text given", () => {
    const p = parseReadOnly("SELECT ?x WHERE { ?x rdfs:label ?l }");
    expect(p.kind).toBe("SELECT");
    expect(p.declaredPrefixes).toEqual(["rdfs"]);
    expect(p.query).toBe("PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\nSELECT ?x WHERE { ?x rdfs:label ?l }");
    const asWritten = parseReadOnly("PREFIX rdfs: <http://example.org/mine#> SELECT ?x WHERE { ?x rdfs:label ?l }");
    expect(asWritten.declaredPrefixes).toEqual([]);
    expect(asWritten.query).toBe("PREFIX rdfs: <http://example.org/mine#> SELECT ?x WHERE { ?x rdfs:label ?l }");
    const e = rejection("SELECT ?x WHERE {\n  ?x rdfs:label ?l ;\n  }}");
    expect(e.where?.line).toBe(3);
    expect(rejection("DELETE WHERE { ?s rdfs:label ?o }").code).toBe("sparql_forbidden");
  });

  it("refuses text that is not SPARQL at all", () => {
    expect(rejection("} ; DROP TABLE x").code).toBe("sparql_syntax");
  });

  it("lists SERVICE endpoints so callers can refuse federation", () => {
    expect(parseReadOnly("SELECT * WHERE { SERVICE <http://other.example/sparql> { ?s ?p ?o } }").serviceIris).toEqual([
      "http://other.example/sparql",
    ]);
  });
});

describe("parseReadOnly cache", () => {
  it("returns the same parse for a repeated query string, without re-parsing", () => {
    const q = "SELECT ?o WHERE { <http://example.org/cache-hit> ?p ?o } LIMIT 7";
    const first = parseReadOnly(q);
    expect(parseReadOnly(q)).toBe(first);
    expect(first.kind).toBe("SELECT");
  });

  it("refuses an update every time (refusals are never cached as accepted)", () => {
    const q = "DELETE WHERE { <http://example.org/cache-refusal> ?p ?o }";
    expect(rejection(q).code).toBe("sparql_forbidden");
    expect(rejection(q).code).toBe("sparql_forbidden");
  });

  it("is bounded: the least recently used query is evicted, a recently used one is kept", () => {
    const oldest = "SELECT ?o WHERE { <http://example.org/cache-oldest> ?p ?o }";
    const kept = "SELECT ?o WHERE { <http://example.org/cache-kept> ?p ?o }";
    const a = parseReadOnly(oldest);
    const b = parseReadOnly(kept);
    for (let i = 0; i < PARSE_CACHE_SIZE - 1; i++) {
      parseReadOnly(`SELECT ?o WHERE { <http://example.org/cache-fill-${i}> ?p ?o }`);
      if (i === 0) expect(parseReadOnly(kept)).toBe(b); // touched: now the most recent
    }
    expect(parseReadOnly(kept)).toBe(b);
    const again = parseReadOnly(oldest);
    expect(again).not.toBe(a);
    expect(again.kind).toBe("SELECT");
  });
});
