import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import type * as Sparql from "sparqljs";
import { describe, expect, it } from "vitest";
import type { SchemaCards } from "@/lib/pipeline/common/schema-cards";
import { plantFaults, resultKey, typo } from "./one-call-faults";

const V = "http://example.org/v/";
const cards: SchemaCards = { kgId: "x", cards: [], prefixes: {}, predicates: new Map([[`${V}wrote`, 3], [`${V}born`, 2], [`${V}name`, 9]]), sampled: false };
const gold = parseSparql(`PREFIX v: <${V}> SELECT ?b WHERE { <http://example.org/r/Ada> v:wrote ?b . ?b a v:Book ; v:name "Notes" }`) as Sparql.SelectQuery;

describe("planted faults", () => {
  it("plants one fault of each kind into a copy of the query", () => {
    const faults = plantFaults(gold, cards, ["http://www.w3.org/1999/02/22-rdf-syntax-ns#type"], "item-1");
    const byKind = Object.fromEntries(faults.map((f) => [f.kind, f.sparql]));
    expect(byKind["wrong predicate"]).toMatch(/<http:\/\/example\.org\/r\/Ada> v:(born|name) \?b/);
    expect(byKind["wrong direction"]).toMatch(/\?b v:wrote <http:\/\/example\.org\/r\/Ada>/);
    expect(byKind["unknown class"]).toMatch(/rdf-syntax-ns#type> v:BookGroup/);
    expect(byKind["IRI typo"]).toContain("http://example.org/r/Aad");
    // the gold itself is untouched
    expect(stringifySparql(gold)).toContain("<http://example.org/r/Ada> v:wrote ?b");
  });

  it("swaps two letters of the local name, and compares results as sets of rows", () => {
    expect(typo("http://x/TopologicalNode")).toBe("http://x/TopologcialNode");
    const row = (v: string) => ({ x: { type: "uri" as const, value: v } });
    const a = resultKey({ kind: "SELECT", head: { vars: ["x"] }, results: { bindings: [row("1"), row("2")] } });
    const b = resultKey({ kind: "SELECT", head: { vars: ["x"] }, results: { bindings: [row("2"), row("1"), row("1")] } });
    expect(a).toBe(b);
  });
});
