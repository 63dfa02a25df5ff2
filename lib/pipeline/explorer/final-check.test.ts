import { describe, expect, it } from "vitest";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { checkFinalQuery, irisOfQuery } from "./final-check";
import { irisInText, KnownIris } from "./known-iris";

const EX = "http://ex.org/";
const LABEL = "http://www.w3.org/2000/01/rdf-schema#label";
const P = `PREFIX ex: <${EX}> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> `;

function check(query: string, known: string[] = [], seen: string[] = []) {
  const k = new KnownIris();
  k.add(known);
  return checkFinalQuery(parseReadOnly(P + query).ast, { known: k, labelPredicates: [LABEL], seenInResults: new Set(seen) });
}

describe("the final query checks", () => {
  it("accepts a query whose IRIs were all returned (standard vocabularies need no tool)", () => {
    expect(check("SELECT ?x WHERE { ?x a ex:Film ; rdfs:label ?l ; ex:year ?y FILTER(?y > 2000) }", [`${EX}Film`, `${EX}year`]).problems).toEqual([]);
  });

  it("names IRIs no tool returned", () => {
    const { problems } = check("SELECT ?x WHERE { ex:Dune ex:author ?x }", [`${EX}author`]);
    expect(problems).toEqual([expect.stringMatching(/^<http:\/\/ex\.org\/Dune> was not returned by any tool/)]);
  });

  it("refuses an IRI that differs from a known one only in percent-encoding and names the exact one", () => {
    const known = `${EX}person/Zo%C3%AB%20Kim`;
    const r = check(`SELECT ?x WHERE { <${EX}person/Zoë%20Kim> ex:knows ?x }`, [known, `${EX}knows`]);
    expect(r.problems).toEqual([`<${EX}person/Zoë%20Kim> differs from the IRI a tool returned only in its percent-encoding: use <${known}> exactly as returned`]);
    expect(r.warnings).toHaveLength(1);
  });

  it("refuses a label column of another projected variable, and SELECT *", () => {
    expect(check("SELECT ?x ?name WHERE { ?x ex:p ?y ; rdfs:label ?name }", [`${EX}p`]).problems).toEqual([
      "?name is only the label of ?x: project ?x alone (labels are shown to the user anyway)",
    ]);
    // a label asked for on its own is the answer, not a label column
    expect(check("SELECT ?name WHERE { ?x ex:p ?y ; rdfs:label ?name }", [`${EX}p`]).problems).toEqual([]);
    expect(check("SELECT * WHERE { ?x ex:p ?y }", [`${EX}p`]).problems).toEqual(["SELECT * projects every variable: project only the variables that hold the answer"]);
  });

  it("refuses answers an earlier query returned pasted in as VALUES, BIND or FILTER constants of a projected variable", () => {
    const known = [`${EX}a`, `${EX}b`, `${EX}p`];
    const seen = [`${EX}a`, `${EX}b`];
    expect(check("SELECT ?x WHERE { VALUES ?x { ex:a ex:b } }", known, seen).problems[0]).toMatch(/^\?x is fixed by VALUES/);
    expect(check("SELECT ?x WHERE { BIND(ex:a AS ?x) }", known, seen).problems[0]).toMatch(/^\?x is fixed by BIND/);
    expect(check("SELECT ?x WHERE { ?x ex:p ?y FILTER(?x IN (ex:a, ex:b)) }", known, seen).problems[0]).toMatch(/^\?x is fixed by FILTER\(IN\)/);
    // an anchor from the question (not a result of an earlier query) may be a constant; so may a value of a non-projected variable
    expect(check("SELECT ?y WHERE { VALUES ?x { ex:a } ?x ex:p ?y }", known, seen).problems).toEqual([]);
    expect(check("SELECT ?x WHERE { VALUES ?x { ex:a } }", known, []).problems).toEqual([]);
  });

  it("collects IRIs from paths, VALUES and FILTERs but not literal datatypes", () => {
    const { ast } = parseReadOnly(`${P}SELECT ?x WHERE { ?x ex:p/ex:q ?y VALUES ?z { ex:z } FILTER(?y != ex:w && ?y > "1"^^<${EX}myType>) }`);
    expect(irisOfQuery(ast).sort()).toEqual([`${EX}p`, `${EX}q`, `${EX}w`, `${EX}z`]);
  });

  it("reads IRIs written as <…> in a text (the dialogue's earlier answers)", () => {
    expect(irisInText("A1: Frank Herbert <http://ex.org/Herbert>; <urn:x:1> and <not an iri>")).toEqual(["http://ex.org/Herbert", "urn:x:1"]);
  });
});
