// Undeclared well-known prefixes: declared in front of the query, only those used, never over a query's own declaration.
import { describe, expect, it } from "vitest";
import { parseSparql } from "./sparql-syntax";
import { parseDeclaring, unknownPrefixOf, WELL_KNOWN_PREFIXES, withDeclarations } from "./well-known-prefixes";

const parse = (text: string) => parseSparql(text);

describe("parseDeclaring", () => {
  it("declares exactly the well-known prefixes the query uses undeclared, each on its own line in front", () => {
    const q = 'SELECT ?x ?d WHERE { ?x rdfs:label ?l ; foaf:age ?d FILTER(?d > "3"^^xsd:integer) }';
    const out = parseDeclaring(q, parse);
    if (!out.ok) throw new Error("expected a parse");
    expect([...out.declared].sort()).toEqual(["foaf", "rdfs", "xsd"]);
    expect(out.query.endsWith(`\n${q}`)).toBe(true);
    expect(out.query.split("\n").slice(0, 3).sort()).toEqual([
      "PREFIX foaf: <http://xmlns.com/foaf/0.1/>",
      "PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>",
      "PREFIX xsd: <http://www.w3.org/2001/XMLSchema#>",
    ]);
  });

  it("leaves a query that declares its prefixes (or uses none) as written; its own namespace wins", () => {
    const own = "PREFIX schema: <https://schema.org/>\nSELECT ?n WHERE { ?x schema:name ?n ; rdfs:label ?l }";
    const out = parseDeclaring(own, parse);
    if (!out.ok) throw new Error("expected a parse");
    expect(out.declared).toEqual(["rdfs"]);
    expect(out.query).not.toContain("http://schema.org/");
    const plain = parseDeclaring("SELECT * WHERE { ?s ?p ?o }", parse);
    expect(plain.ok && plain.query).toBe("SELECT * WHERE { ?s ?p ?o }");
    expect(plain.ok && plain.declared).toEqual([]);
  });

  it("still refuses a prefix that is not well known, and says how many lines it added before another error", () => {
    const unknown = parseDeclaring("SELECT * WHERE { ?s ex:p ?o }", parse);
    expect(unknown.ok).toBe(false);
    expect(!unknown.ok && unknownPrefixOf(unknown.error)).toBe("ex");
    const broken = parseDeclaring("SELECT ?l WHERE {\n ?x rdfs:label ?l ;\n }}", parse);
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.lineOffset).toBe(1);
  });

  it("covers the nine prefixes users write without declaring them", () => {
    expect(Object.keys(WELL_KNOWN_PREFIXES).sort()).toEqual(["dc", "dcterms", "foaf", "owl", "rdf", "rdfs", "schema", "skos", "xsd"]);
    expect(withDeclarations("ASK {}", [])).toBe("ASK {}");
  });
});
