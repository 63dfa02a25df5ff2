// Oracle calibration: each structural literal kept (and logged) where it is structure, and the same literal — or any
// KG constant — still refused where it is data.
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { describe, expect, it } from "vitest";
import { createOracleLog } from "./oracle-grounding";
import { groundQueryConstants } from "./oracle-query-constants";
import { isYesNoEncoding, listedCounts, structuralFilterValue, structuralLiterals } from "./oracle-structure";

const P = "PREFIX ex: <http://example.org/fleet/> ";
const KNOWN = (iri: string) => iri.startsWith("http://example.org/fleet/");

/** The oracle's grounding of `sparql` asked as `question`: what it kept as structure and what it dropped. */
function grounded(question: string, sparql: string) {
  const log = createOracleLog("question-grounded");
  const g = groundQueryConstants(P + sparql, { question }, log, KNOWN);
  return { dropped: g.dropped, structure: log.normalisations.filter((n) => n.startsWith("structure:")), sparql: g.sparql };
}
const reasons = (question: string, sparql: string) => [...structuralLiterals(parseSparql(P + sparql), question).values()];

describe("structural literals are structure", () => {
  it("REGEX and REPLACE flags", () => {
    const r = grounded("Which ships have gull in their name?", `SELECT ?s WHERE { ?s ex:name ?n . FILTER(REGEX(?n, "gull", "i")) }`);
    expect(r.dropped).toEqual([]);
    expect(r.structure).toEqual(['structure: REGEX flags "i"']);
    expect(reasons("Name with dashes?", `SELECT (REPLACE(?n, "-", " ", "i") AS ?m) WHERE { ?s ex:name ?n }`)).toContain("REPLACE flags");
  });

  it("the output values of IF and COALESCE, and a literal BIND, whose result meets no KG data", () => {
    const r = grounded("For each ship, does it have more than 20 crew?", `SELECT ?s (IF(?c > 20, "True", "False") AS ?big) WHERE { ?s ex:crew ?c }`);
    expect(r.dropped).toEqual([]);
    expect(r.structure).toEqual(['structure: output value of IF "True"', 'structure: output value of IF "False"']);
    expect(grounded("Crew of each ship, or none?", `SELECT ?s (COALESCE(?c, "none known") AS ?crew) WHERE { ?s a ex:Ship OPTIONAL { ?s ex:crew ?c } }`).structure).toEqual(['structure: output value of COALESCE "none known"']);
    expect(grounded("Label every ship", `SELECT ?s ?kind WHERE { ?s a ex:Ship BIND("vessel" AS ?kind) }`).structure).toEqual(['structure: output value of BIND "vessel"']);
  });

  it("a yes/no encoding compared with a variable", () => {
    const r = grounded("Which ships are in service?", `SELECT ?s WHERE { ?s ex:inService ?x FILTER(?x = "yes") }`);
    expect(r).toMatchObject({ dropped: [], structure: ['structure: yes/no encoding "yes"'] });
    expect(isYesNoEncoding("Y")).toBe(true);
    expect(isYesNoEncoding("y")).toBe(false); // a lower-case letter alone is not read as one
  });

  it("a count the question implies by listing items: a divisor, or a COUNT compared with it", () => {
    expect(listedCounts("What is the average crew of the Kittiwake and the Gannet?")).toEqual([2]);
    expect(listedCounts("Which ships visited Aberdeen, Bergen and Cork?")).toEqual([3]);
    expect(listedCounts("Welche Schiffe waren weder in Bergen noch in Cork?")).toEqual([2]);
    const avg = grounded("What is the average crew of the Kittiwake and the Gannet?", `SELECT (((?a + ?b) / 2) AS ?avg) WHERE { ex:Kittiwake ex:crew ?a . ex:Gannet ex:crew ?b }`);
    expect(avg).toMatchObject({ dropped: [], structure: ['structure: count of the items the question lists "2"'] });
    const both = grounded("Which ships visited both Aberdeen and Bergen?", `SELECT ?s WHERE { ?s ex:visited ?p FILTER(?p IN (ex:Aberdeen, ex:Bergen)) } GROUP BY ?s HAVING(COUNT(DISTINCT ?p) = 2)`);
    expect(both).toMatchObject({ dropped: [], structure: ['structure: count of the items the question lists "2"'] });
  });

  it("the 0 of an existence test", () => {
    expect(grounded("Is there any ship that visited Bergen?", `SELECT ((COUNT(?s) > 0) AS ?any) WHERE { ?s ex:visited ex:Bergen }`).structure).toEqual(['structure: 0 of an existence test "0"']);
    expect(grounded("Which ports had no visits?", `SELECT ?p WHERE { ?p a ex:Port OPTIONAL { ?s ex:visited ?p } } GROUP BY ?p HAVING(COUNT(?s) = 0)`).dropped).toEqual([]);
    expect(grounded("How many storms had deaths?", `SELECT (COUNT(?s) AS ?n) WHERE { ?s ex:deaths ?d FILTER(?d > 0) }`).dropped).toEqual([]);
  });
});

describe("a KG constant is still refused", () => {
  it("a REGEX pattern the question does not state, beside its kept flag", () => {
    const r = grounded("Which ships have a bird name?", `SELECT ?s WHERE { ?s ex:name ?n . FILTER(REGEX(?n, "gull", "i")) }`);
    expect(r.dropped).toEqual(['literal "gull"']);
    expect(r.structure).toEqual(['structure: REGEX flags "i"']);
  });

  it("IF outputs compared with KG data, and a BIND whose variable meets a triple pattern", () => {
    expect(grounded("Which ships are big?", `SELECT ?s WHERE { ?s ex:crew ?c ; ex:size ?z FILTER(IF(?c > 20, "large", "small") = ?z) }`).dropped).toEqual(["number 20", 'literal "large"', 'literal "small"']);
    expect(grounded("Which ships are of that kind?", `SELECT ?s WHERE { BIND("vessel" AS ?k) ?s ex:kind ?k }`).dropped).toEqual(['literal "vessel"']);
  });

  it("yes/no words as data: in a triple pattern, or compared by order", () => {
    expect(grounded("Which ships are in service?", `SELECT ?s WHERE { ?s ex:inService "yes" }`).dropped).toEqual(['literal "yes"']);
    expect(grounded("Which language codes sort after yes?", `SELECT ?s WHERE { ?s ex:code ?c FILTER(?c > "no") }`).dropped).toEqual(['literal "no"']);
  });

  it("a listed count that is data, or that the question does not list", () => {
    // 2 beds is a KG value: compared with a plain variable, never a count of listed items
    expect(grounded("Which modern and cheap rooms are there?", `SELECT ?r WHERE { ?r ex:beds ?b FILTER(?b = 2) }`).dropped).toEqual(["number 2"]);
    expect(grounded("What is the mean crew of the Kittiwake, the Gannet and the Tern?", `SELECT (((?a + ?b) / 2) AS ?avg) WHERE { ex:Kittiwake ex:crew ?a . ex:Gannet ex:crew ?b }`).dropped).toEqual(["number 2"]);
    expect(grounded("Which ships and ports?", `SELECT ?s WHERE { ?s ex:crew 2 }`).dropped).toEqual(["number 2"]);
  });

  it("a 0 that is a threshold on data", () => {
    expect(grounded("Which ports lie below sea level?", `SELECT ?p WHERE { ?p ex:elevation ?e FILTER(?e < 0) }`).dropped).toEqual(["number 0"]);
  });
});

describe("Chatty-KG's QIR filters", () => {
  it("keep the same structural values and refuse data", () => {
    expect(structuralFilterValue(">", { text: "0", type: "number" }, true, "Which ports had visits?")).toBe("0 of an existence test");
    expect(structuralFilterValue("=", { text: "2", type: "number" }, true, "Which ships visited both Aberdeen and Bergen?")).toBe("count of the items the question lists");
    expect(structuralFilterValue("=", { text: "2", type: "number" }, false, "Which ships visited both Aberdeen and Bergen?")).toBeNull();
    expect(structuralFilterValue("=", { text: "true", type: "string" }, false, "Which ships are in service?")).toBe("yes/no encoding");
    expect(structuralFilterValue("<", { text: "0", type: "number" }, false, "Which ports lie below sea level?")).toBeNull();
  });
});
