// The question-grounded oracle's part in Chatty-KG's query writer: which gold queries need it, and that the written
// query only names what the writer's prompt listed and what the question says.
import { describe, expect, it } from "vitest";
import { createOracleLog } from "./oracle-grounding";
import { parseGold } from "./oracle-llm-gold";
import { needsComposition, oracleWrittenQuery, writerPromptSources } from "./oracle-query-writer";

const E = "http://ex.org/";

describe("needsComposition", () => {
  it("leaves what the QIR says on the generated path", () => {
    expect(needsComposition(`SELECT ?x WHERE { ?x <${E}p> ?y FILTER(?y > 3) } ORDER BY DESC(?y)`)).toBe(false);
    expect(needsComposition(`SELECT (COUNT(*) AS ?n) WHERE { ?x a <${E}C> }`)).toBe(false);
    expect(needsComposition(`SELECT (SUM(?y) AS ?total) WHERE { ?x <${E}p> ?y }`)).toBe(false);
    expect(needsComposition(`ASK { <${E}a> <${E}p> <${E}b> }`)).toBe(false);
    expect(needsComposition(`SELECT ?x WHERE { ?x <${E}p> ?y FILTER(?y IN ("a", "b")) }`)).toBe(false);
    expect(needsComposition(`SELECT ?x WHERE { ?x a <${E}C> FILTER NOT EXISTS { ?x <${E}p> "a" } }`)).toBe(false);
  });

  it("sends groups, set operations, nesting, computed columns and several order keys to the writer", () => {
    expect(needsComposition(`SELECT ?y (COUNT(?x) AS ?n) WHERE { ?x <${E}p> ?y } GROUP BY ?y`)).toBe(true);
    expect(needsComposition(`SELECT ?x WHERE { { ?x <${E}p> "a" } UNION { ?x <${E}p> "b" } }`)).toBe(true);
    expect(needsComposition(`SELECT ?x WHERE { ?x <${E}p> ?y MINUS { ?x <${E}q> ?z } }`)).toBe(true);
    expect(needsComposition(`SELECT ?x WHERE { ?x a <${E}C> FILTER NOT EXISTS { ?x <${E}p> "a" } FILTER NOT EXISTS { ?x <${E}q> "b" } }`)).toBe(true);
    expect(needsComposition(`SELECT ?x WHERE { ?x <${E}p> ?y { SELECT (AVG(?v) AS ?a) WHERE { ?w <${E}p> ?v } } FILTER(?y > ?a) }`)).toBe(true);
    expect(needsComposition(`SELECT ?x ?y WHERE { ?x <${E}p> ?y ; <${E}q> ?z } ORDER BY ?y DESC(?z)`)).toBe(true);
    expect(needsComposition(`SELECT ?x WHERE { ?x <${E}p> ?y } ORDER BY DESC(?y) LIMIT 1`)).toBe(true);
    expect(needsComposition(`SELECT ?x ?z WHERE { ?x <${E}p> ?y OPTIONAL { ?x <${E}q> ?z } }`)).toBe(true);
    expect(needsComposition(`SELECT ((?a - ?b) AS ?d) WHERE { ?x <${E}p> ?a ; <${E}q> ?b }`)).toBe(true);
    expect(needsComposition(`SELECT ?x WHERE { ?x <${E}p> ?y . ?z <${E}p> ?w FILTER(?y IN (?w)) }`)).toBe(true);
  });
});

describe("the oracle's written query", () => {
  const prompt = `Question: …\nLinked values:\n- "Rome" → "Rome" as the value of <${E}city>\nClasses around them:\n<${E}Shop>\n  ?x <${E}city> ?value — xsd:string\n  ?x <${E}seats> ?value — xsd:integer`;
  const q = { text: "Which shops in Rome have more seats than the average shop?", language: "en" };

  it("reads the listed IRIs and values from the prompt", () => {
    const s = writerPromptSources(prompt);
    expect([...s.iris].sort()).toEqual([`${E}Shop`, `${E}city`, `${E}seats`]);
    expect(s.texts).toEqual(["Rome"]);
  });

  it("is the gold query with neutral variables when every IRI was listed and every value is the question's", () => {
    const gold = `SELECT ?s WHERE { ?s a <${E}Shop> ; <${E}city> "Rome" ; <${E}seats> ?n { SELECT (AVG(?m) AS ?avg) WHERE { ?t a <${E}Shop> ; <${E}seats> ?m } } FILTER(?n > ?avg) }`;
    const log = createOracleLog("question-grounded");
    const out = oracleWrittenQuery(prompt, gold, q, log);
    expect(out).toContain(`<${E}seats>`);
    expect(out).toContain("?v1");
    expect(out).not.toContain("?avg");
    expect(log.dropped).toEqual([]);
  });

  it("declines when the gold needs an IRI the prompt did not list, and counts it", () => {
    const gold = `SELECT ?s WHERE { ?s a <${E}Shop> ; <${E}owner> ?o }`;
    const log = createOracleLog("question-grounded");
    expect(oracleWrittenQuery(prompt, gold, q, log)).toBeNull();
    expect(log.dropped).toContain(`iri <${E}owner>`);
  });

  it("turns a literal the question does not state into a variable (counted), never copies it", () => {
    const gold = `SELECT ?s WHERE { ?s a <${E}Shop> ; <${E}city> "Milan" }`;
    const log = createOracleLog("question-grounded");
    const out = oracleWrittenQuery(prompt, gold, q, log) ?? "";
    expect(out).not.toContain("Milan");
    expect(log.dropped).toContain('literal "Milan"');
  });
});

describe("the gold reader", () => {
  it("reads COUNT(*) as a how-many question (sparqljs gives the * a Wildcard term)", () => {
    const plan = parseGold(`SELECT (COUNT(*) AS ?n) WHERE { ?x a <${E}Shop> ; <${E}city> ?c FILTER(?c = "Rome") }`);
    expect(plan.questionType).toBe("count");
    expect(plan.target).toBe("?x");
  });
});
