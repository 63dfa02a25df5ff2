// Ranking generated examples by a person's question: the nouns it shares with an example decide, not the fixed wording
// of the template questions ("How many … do … have?"), plurals meet their singular, and the cue words read as a kind
// of query only where they are phrased as one ("order number" is no order, "the distinct colours" no count).
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { ExperienceExample } from "@/lib/pipeline/types";
import { questionShape } from "./example-shape";
import { contentTokens, rankExamples } from "./examples";

const P = "PREFIX sk: <http://example.org/skywatch/>\n";
const ex = (id: string, question: string, body: string): ExperienceExample => ({ id, question, sparql: `${P}${body}`, source: "generated" });
const COUNT = ex("count", "How many comets are there?", "SELECT (COUNT(?c) AS ?n) WHERE { ?c a sk:Comet }");
const COLOURS = ex("colours", "How many different tail colour values do the comets have?", "SELECT (COUNT(DISTINCT ?t) AS ?n) WHERE { ?c a sk:Comet ; sk:tail_colour ?t }");
const LIST_COLOURS = ex("list-colours", "List the tail colour of all comets.", "SELECT ?t WHERE { ?c a sk:Comet ; sk:tail_colour ?t }");
const top = async (question: string, pool: ExperienceExample[]) => (await rankExamples(question, pool, createLexicalSimilarity(), 1))[0]?.id;

describe("the words that decide", () => {
  it("makes a plural singular the way a person writes it", () => {
    expect(contentTokens("the names of countries, classes and codes")).toEqual(["name", "country", "class", "code"]);
    // function words only: they are kept, so that something can still match
    expect(contentTokens("What are these?")).toEqual(["what", "are", "these"]);
  });

  it("does not let a template's wording outrank the example that shares the question's nouns", async () => {
    // "do … have" is the distinct-values template's wording, not what the person asks
    expect(await top("How many comets do we have?", [COLOURS, COUNT])).toBe("count");
    expect(await top("How many distinct tail colours are there?", [COUNT, COLOURS])).toBe("colours");
  });

  it("meets a plural in the question with the singular of the example", async () => {
    const pool = [
      ex("lookup", "What are the codes of the comets with tail colour Blue?", 'SELECT ?k WHERE { ?c a sk:Comet ; sk:tail_colour "Blue" ; sk:comet_code ?k }'),
      ex("pair", "List the name and code of every comet.", "SELECT ?n ?k WHERE { ?c a sk:Comet ; sk:name ?n ; sk:comet_code ?k }"),
    ];
    expect(await top("What are the names and codes of comets?", pool)).toBe("pair");
  });
});

describe("cue words phrased as what they ask", () => {
  it("reads 'order' as a noun apart from an order", async () => {
    expect(questionShape("List the order numbers of all comets.").has("order")).toBe(false);
    expect(questionShape("List the comets in alphabetical order.").has("order")).toBe(true);
    const pool = [
      ex("sorted", "List the order number of all comets in ascending order.", "SELECT ?o WHERE { ?c a sk:Comet ; sk:order_number ?o } ORDER BY ASC(?o)"),
      ex("plain", "List the order number of all comets.", "SELECT ?o WHERE { ?c a sk:Comet ; sk:order_number ?o }"),
    ];
    expect(await top("List the order numbers of all the comets.", pool)).toBe("plain");
  });

  it("prefers an example sorted by another column when the question names what to sort by", async () => {
    const pool = [
      ex("same", "List the name of all comets in ascending order.", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n } ORDER BY ASC(?n)"),
      ex("other", "List the name of all comets sorted by estimated mass.", "SELECT ?n WHERE { ?c a sk:Comet ; sk:name ?n ; sk:estimated_mass ?m } ORDER BY ASC(?m)"),
    ];
    expect(await top("List the names of comets in ascending order of estimated mass.", pool)).toBe("other");
    expect(await top("List the names of all comets in ascending order.", pool)).toBe("same");
  });

  it("reads 'distinct' as a count of values only after a count", async () => {
    expect(questionShape("What are the distinct tail colours of the comets?").has("distinct")).toBe(false);
    expect(questionShape("How many distinct tail colours are there?").has("distinct")).toBe(true);
    expect(await top("What are the distinct tail colours of the comets?", [COLOURS, LIST_COLOURS])).toBe("list-colours");
  });

  it("reads 'the numbers of … for different …' as a count per group", () => {
    expect([...questionShape("What are the numbers of comets for different tail colours?")].sort()).toEqual(["count", "group"]);
  });
});
