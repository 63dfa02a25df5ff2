// The explorer's oracle: honest by construction (it finishes only with terms the tools returned), on the sample KG.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createExplorerOracleLlm, goldTerms, readSeen, withoutMissing } from "./oracle-explorer";
import { runExplorerOracle } from "./testing/run-explorer-oracle";

const P = "PREFIX res: <http://example.org/chatty-kg/resource/> PREFIX ont: <http://example.org/chatty-kg/ontology/> ";
const RES = "http://example.org/chatty-kg/resource/";
let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "sample" });
}, 60_000);
afterAll(async () => kg?.close());

const runOracle = (question: string, gold: string) => runExplorerOracle(createExplorerOracleLlm, kg, question, gold);

describe("explorer oracle", () => {
  it("tells instances, schema terms and literals (exact or substring) of a gold query apart", () => {
    const ast = parseSparql(`${P}SELECT ?f WHERE { ?f a ont:Film ; ont:basedOn res:Harry_Potter ; ont:title ?t . ?c ont:city "London" FILTER(CONTAINS(?t, "Stone")) }`);
    expect(goldTerms(ast)).toEqual([
      { kind: "schema", value: "http://example.org/chatty-kg/ontology/Film" },
      { kind: "schema", value: "http://example.org/chatty-kg/ontology/basedOn" },
      { kind: "instance", value: `${RES}Harry_Potter` },
      { kind: "schema", value: "http://example.org/chatty-kg/ontology/title" },
      { kind: "schema", value: "http://example.org/chatty-kg/ontology/city" },
      { kind: "literal", value: "London", match: "exact", predicate: "http://example.org/chatty-kg/ontology/city" },
      { kind: "literal", value: "Stone", match: "substring" },
    ]);
  });

  it("reads IRIs (full, or compact with the summary's or a tool's prefixes), literals and the searches done", () => {
    const seen = readSeen([
      { role: "system", text: "PREFIX ex: <http://ex.org/>\nclass ex:Film e.g. \"Dune\"" },
      { role: "tool", text: 'Entities for "Frank Herbert":\n1. ex:Herbert "Frank Herbert"\n2. <http://other.org/a%20b>\n(prefixes: o: <http://o.org/>)' },
      { role: "tool", text: 'No literal value matches "Arrakis".\n1. o:x' },
    ]);
    expect([...seen.iris].sort()).toEqual(["http://ex.org/Film", "http://ex.org/Herbert", "http://o.org/x", "http://other.org/a%20b"]);
    expect(seen.literals).toEqual(expect.arrayContaining(["Dune", "Frank Herbert"]));
    expect([...seen.searches].sort()).toEqual(["arrakis", "frank herbert"]);
  });

  it("replaces the terms no tool surfaced by fresh variables", () => {
    const ast = parseSparql(`${P}SELECT ?a WHERE { res:Nowhere ont:author ?a ; ont:city "Atlantis" }`);
    const q = withoutMissing(ast, [{ kind: "instance", value: `${RES}Nowhere` }, { kind: "literal", value: "Atlantis", match: "exact" }]);
    expect(q).toMatch(/\?oracle_missing_1 ont:author \?a/);
    expect(q).toMatch(/ont:city \?oracle_missing_2/);
  });

  it("splits a property path through a missing IRI so the weakened query still parses and keeps the found steps", () => {
    const ast = parseSparql(`${P}SELECT ?a WHERE { ?a ont:author/ont:city res:Oslo . ?a ^ont:wrote/ont:city ?c . ?a (ont:x|ont:y)* ?d }`);
    const missing = ["author", "wrote", "x"].map((n) => ({ kind: "schema" as const, value: `http://example.org/chatty-kg/ontology/${n}` }));
    const q = withoutMissing(ast, missing);
    expect(() => parseSparql(q)).not.toThrow();
    expect(q).toMatch(/\?a \?oracle_missing_1 \?oracle_path_1\s*\.\s*\?oracle_path_1 ont:city res:Oslo/);
    // the inverse step swaps its ends; the alternative under a repetition becomes one edge of some property
    expect(q).toMatch(/\?oracle_path_2 \?oracle_missing_2 \?a;\s*ont:city \?c/);
    expect(q).toMatch(/\?a \?oracle_path_3 \?d/);
  });

  it("finds the gold's entity by its KG label, tests the query and finishes with it", async () => {
    const { result, tools } = await runOracle("Who is the author of Harry Potter?", `${P}SELECT ?a WHERE { res:Harry_Potter ont:author ?a }`);
    expect(tools.map((t) => [t.tool, t.input])).toEqual([
      ["search_entities", { query: "Harry Potter" }],
      ["execute_sparql", { sparql: `${P}SELECT ?a WHERE { res:Harry_Potter ont:author ?a }` }],
      ["finish", { sparql: `${P}SELECT ?a WHERE { res:Harry_Potter ont:author ?a }` }],
    ]);
    expect(result.answer).toMatchObject({ kind: "items", items: [{ value: `${RES}J_K_Rowling` }] });
  });

  it("cannot use a term its searches did not return: it is missing from the final query", async () => {
    const { result, tools } = await runOracle("Who wrote the unknown book?", `${P}SELECT ?a WHERE { res:Book_That_Does_Not_Exist ont:author ?a }`);
    expect(tools.map((t) => t.tool)).toEqual(["search_entities", "execute_sparql", "finish"]);
    expect(tools[0].input).toEqual({ query: "book that does not exist" });
    expect(result.sparql[0]).toMatch(/\?oracle_missing_1 ont:author \?a/);
    // the gold answer (nothing) is not what the weakened query returns
    expect(result.answer.kind).toBe("items");
  });
});
