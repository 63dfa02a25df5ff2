// Retrieval by kind of query: the question's cue words ("how many … each", "highest", "sorted") against the operators
// of an example's query, and the words of the classes and predicates the query names beside its question's words.
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { ExperienceExample } from "@/lib/pipeline/types";
import { queryShape, questionShape, shapeAgreement } from "./example-shape";
import { rankExamples, withoutValues } from "./examples";

const P = "PREFIX sk: <http://example.org/skywatch/>\n";
const POOL: ExperienceExample[] = [
  { id: "lookup", question: "Which comets are in group north group?", sparql: `${P}SELECT ?c WHERE { ?c a sk:Comet ; sk:in_group sk:north_group }`, source: "generated" },
  { id: "per-group", question: "How many comets are there for each group?", sparql: `${P}SELECT ?g (COUNT(?c) AS ?count) WHERE { ?c a sk:Comet ; sk:in_group ?g } GROUP BY ?g`, source: "generated" },
  { id: "count", question: "How many comets are there?", sparql: `${P}SELECT (COUNT(?c) AS ?count) WHERE { ?c a sk:Comet }`, source: "generated" },
  { id: "top", question: "Which comet has the highest estimated mass?", sparql: `${P}SELECT ?c WHERE { ?c a sk:Comet ; sk:estimated_mass ?m } ORDER BY DESC(?m) LIMIT 1`, source: "generated" },
  { id: "mass", question: "What is the estimated mass of comet k02?", sparql: `${P}SELECT ?m WHERE { sk:comet_k02 sk:estimated_mass ?m }`, source: "generated" },
  { id: "code", question: "What is the comet code of the comet whose tail colour is blue?", sparql: `${P}SELECT ?k WHERE { ?c a sk:Comet ; sk:tail_colour "blue" ; sk:comet_code ?k }`, source: "generated" },
];
const ids = async (question: string, options?: Parameters<typeof rankExamples>[4]) => (await rankExamples(question, POOL, createLexicalSimilarity(), 2, options)).map((e) => e.id);

describe("the kind of query a question asks for", () => {
  it("reads cue words from the question and operators from the query", () => {
    expect([...questionShape("How many comets does each group hold?")].sort()).toEqual(["count", "group"]);
    expect([...questionShape("Which comet is the heaviest?")]).toEqual(["superlative"]);
    expect([...queryShape(POOL[1].sparql)].sort()).toEqual(["count", "group"]);
    expect([...queryShape(POOL[3].sparql)]).toEqual(["superlative"]);
    // a cue inside a string literal is no operator (the literal is a value the query names)
    expect([...queryShape(`${P}SELECT ?c WHERE { ?c sk:note "ORDER BY x LIMIT 1" }`)]).toEqual(["value"]);
    expect(shapeAgreement(new Set(["count", "group"]), new Set(["count", "group"]))).toBe(1);
    expect(shapeAgreement(new Set(["count", "group"]), new Set([]))).toBe(-1);
  });

  it("ranks an example of the same kind above one that only shares the nouns", async () => {
    // by words alone the group lookup wins: it shares "comets" and "group" twice
    expect((await ids("Number of comets per group?", { shapeWeight: 0, schemaWords: false }))[0]).toBe("lookup");
    expect((await ids("Number of comets per group?"))[0]).toBe("per-group");
    expect((await ids("Which comet is the heaviest by estimated mass?"))[0]).toBe("top");
  });

  it("matches the class and predicate words of the example's query, not only its question", async () => {
    // the question says "code" and "tail colour"; a rewritten example question might not
    const pool: ExperienceExample[] = [
      { ...POOL[5], question: "What is catalogued for the sky-tinted ones?" },
      { ...POOL[4], question: "How heavy is comet k02?" },
    ];
    const rank = async (schemaWords: boolean) => (await rankExamples("Give the comet code of comets with a blue tail colour", pool, createLexicalSimilarity(), 1, { shapeWeight: 0, schemaWords }))[0]?.id;
    expect(await rank(false)).not.toBe("code");
    expect(await rank(true)).toBe("code");
  });
});

describe("counting things or distinct values", () => {
  it("reads a count of a class's things apart from a count of different values", async () => {
    expect(queryShape(`${P}SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a sk:Comet }`).has("distinct")).toBe(false);
    expect(queryShape(`${P}SELECT (COUNT(DISTINCT ?t) AS ?n) WHERE { ?c a sk:Comet ; sk:tail_colour ?t }`).has("distinct")).toBe(true);
    const pool: ExperienceExample[] = [
      { id: "colours", question: "How many different tail colour values do the comets have?", sparql: `${P}SELECT (COUNT(DISTINCT ?t) AS ?n) WHERE { ?c a sk:Comet ; sk:tail_colour ?t }`, source: "generated" },
      { id: "comets", question: "How many comets are there?", sparql: `${P}SELECT (COUNT(DISTINCT ?c) AS ?n) WHERE { ?c a sk:Comet }`, source: "generated" },
    ];
    const top = async (q: string) => (await rankExamples(q, pool, createLexicalSimilarity(), 1))[0]?.id;
    expect(await top("How many comets have been seen?")).toBe("comets");
    expect(await top("How many distinct tail colours do the comets have?")).toBe("colours");
  });

  it("reads 'ordered by' as an order", () => {
    expect(questionShape("list names of all comets ordered by their names").has("order")).toBe(true);
  });
});

describe("a lookup or a listing", () => {
  it("reads a named value in the question and a constant in the query", () => {
    expect(questionShape("What is the tail colour of comet K02?").has("value")).toBe(true);
    expect(questionShape("Which comets have a mass above 300?").has("value")).toBe(true);
    expect(questionShape("Show the tail colours of all comets.").has("value")).toBe(false);
    expect(queryShape(POOL[4].sparql).has("value")).toBe(true);
    expect(queryShape(POOL[2].sparql).has("value")).toBe(false);
  });

  it("ranks a lookup first for a question that names a value, though a listing shares more of its words", async () => {
    const pool: ExperienceExample[] = [
      { id: "lookup", question: "What are the tail colour and code of the comet whose code is C-1002?", sparql: `${P}SELECT ?t ?k WHERE { ?c a sk:Comet ; sk:comet_code "C-1002" ; sk:tail_colour ?t ; sk:comet_code ?k }`, source: "generated" },
      { id: "listing", question: "List the tail colour and comet code of every comet.", sparql: `${P}SELECT ?t ?k WHERE { ?c a sk:Comet ; sk:tail_colour ?t ; sk:comet_code ?k }`, source: "generated" },
    ];
    const top = async (q: string) => (await rankExamples(q, pool, createLexicalSimilarity(), 1))[0]?.id;
    expect(await top("List the tail colour and comet code of comet C-1005.")).toBe("lookup");
  });

  it("does not demote a lookup when the question's value has no cue (written in lower case)", async () => {
    const pool: ExperienceExample[] = [
      { id: "lookup", question: "Which comets have tail colour blue?", sparql: `${P}SELECT ?c WHERE { ?c a sk:Comet ; sk:tail_colour "blue" }`, source: "generated" },
      { id: "listing", question: "List the tail colour of all comets.", sparql: `${P}SELECT ?t WHERE { ?c a sk:Comet ; sk:tail_colour ?t }`, source: "generated" },
    ];
    expect((await rankExamples("Comets whose tail colour is white?", pool, createLexicalSimilarity(), 1))[0]?.id).toBe("lookup");
  });
});

describe("cue words of a group and of a value, read in a question of two sentences", () => {
  it("reads 'of different …' and '… and the count' as a group, 'the number of different …' as distinct values", () => {
    expect(questionShape("What is the average mass of different tail colours?").has("group")).toBe(true);
    expect(questionShape("Please show the tail colours of the comets and the count.").has("group")).toBe(true);
    expect(questionShape("What is the number of different tail colours?").has("group")).toBe(false);
    expect(questionShape("List the names and the number of moons of the planets.").has("group")).toBe(false);
  });

  it("takes the first word of a second sentence for no value", async () => {
    expect(questionShape("What is the average mass of comets by tail colour? List tail colour and average mass.").has("value")).toBe(false);
    expect(questionShape("What is the mass of comets found by Orla?").has("value")).toBe(true);
    expect(withoutValues("Which comets are blue? Show Orla's ones.")).toBe("Which comets are blue? Show ones.");
    const pool: ExperienceExample[] = [
      { id: "value", question: "What is the average estimated mass of the comets whose tail colour is Blue?", sparql: `${P}SELECT (AVG(?m) AS ?a) WHERE { ?c a sk:Comet ; sk:estimated_mass ?m ; sk:tail_colour "Blue" }`, source: "generated" },
      { id: "per", question: "What is the average estimated mass of the comets for each tail colour?", sparql: `${P}SELECT ?t (AVG(?m) AS ?a) WHERE { ?c a sk:Comet ; sk:estimated_mass ?m ; sk:tail_colour ?t } GROUP BY ?t`, source: "generated" },
    ];
    expect((await rankExamples("What is the average estimated mass of different tail colour? List tail colour and average estimated mass.", pool, createLexicalSimilarity(), 1))[0]?.id).toBe("per");
  });
});

describe("a question that names two values", () => {
  it("counts a name once, a short word inside it too, and each quoted text or number", () => {
    expect(questionShape("Which comets were found by Orla at Vela?").has("values")).toBe(true);
    expect(questionShape("What is the tail colour of Vale of Orla?").has("values")).toBe(false);
    expect(questionShape("Which comets weigh between 10 and 20?").has("values")).toBe(true);
    expect(questionShape("Which comets have the tail colour 'blue'?").has("values")).toBe(false);
  });

  it("prefers the example that holds two constants to one that filters by one", async () => {
    const pool: ExperienceExample[] = [
      { id: "one", question: "Which comets have discoverer Orla?", sparql: `${P}SELECT ?c WHERE { ?c sk:discoverer sk:Orla }`, source: "generated" },
      { id: "two", question: "What are the discoverer inverses of Orla that are also observatory inverses of Vela?", sparql: `${P}SELECT ?c WHERE { sk:Orla sk:discoverer_inverse ?c . sk:Vela sk:observatory_inverse ?c }`, source: "generated" },
    ];
    const top = async (q: string) => (await rankExamples(q, pool, createLexicalSimilarity(), 1))[0]?.id;
    expect(await top("Which comets did Mira find at the Kepler observatory?")).toBe("two");
    expect(await top("Which comets did Mira find?")).toBe("one");
  });
});
