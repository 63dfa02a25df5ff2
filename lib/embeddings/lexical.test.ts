// Lexical fallback: relation phrases from questions must rank the right KG predicate labels first, quickly.
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity, stem, tokenize } from "./lexical";

const PERSON = ["birth date", "birth place", "death date", "death place", "spouse", "children", "starring", "occupation", "almaMater", "nationality"];
const FILM = ["starring", "director", "producer", "release date", "runtime", "budget", "writer", "music composer", "distributor"];
const ORG = ["founder", "founding year", "location", "key person", "number of employees", "industry", "headquarters"];
const BOOK = ["author", "publisher", "release date", "number of pages", "genre", "illustrator", "language"];

// [relation phrase, candidate predicate labels, expected top label(s) (any of them may be first)]
const CASES: [string, string[], string[]][] = [
  ["born", PERSON, ["birth date", "birth place"]],
  ["when born", PERSON, ["birth date"]],
  ["where born", PERSON, ["birth place"]],
  ["birthplace", PERSON, ["birth place"]],
  ["died", PERSON, ["death date", "death place"]],
  ["place of death", PERSON, ["death place"]],
  ["wife", PERSON, ["spouse"]],
  ["married to", PERSON, ["spouse"]],
  ["child", PERSON, ["children"]],
  ["studied at", PERSON, ["almaMater"]],
  ["played", FILM, ["starring"]],
  ["starred in", FILM, ["starring"]],
  ["actors", FILM, ["starring"]],
  ["directed", FILM, ["director"]],
  ["produced", FILM, ["producer"]],
  ["released", FILM, ["release date"]],
  ["written", FILM, ["writer"]],
  ["composed the music", FILM, ["music composer"]],
  ["how long", FILM, ["runtime"]],
  ["founded", ORG, ["founder"]],
  ["founded", ["founders", "location", "industry"], ["founders"]],
  ["founded", ["foundedBy", "location", "industry"], ["foundedBy"]],
  ["located", ORG, ["location"]],
  ["wrote", BOOK, ["author"]],
  ["written by", BOOK, ["author"]],
  ["published", BOOK, ["publisher", "release date"]],
  ["released", BOOK, ["release date"]],
  ["illustrated", BOOK, ["illustrator"]],
  ["spoken language", BOOK, ["language"]],
];

describe("lexical similarity ranking", () => {
  const sim = createLexicalSimilarity();

  it.each(CASES)("%s → %j", async (relation, candidates, expected) => {
    const scores = await sim.scores(relation, candidates);
    const ranked = candidates.map((c, i) => [c, scores[i]] as const).sort((a, b) => b[1] - a[1]);
    expect(expected, `ranking: ${ranked.map(([c, s]) => `${c}=${s.toFixed(2)}`).join(", ")}`).toContain(ranked[0][0]);
    // the winner must be clearly separated from labels outside the expected set
    const bestOther = ranked.find(([c]) => !expected.includes(c));
    if (bestOther) expect(ranked[0][1] - bestOther[1]).toBeGreaterThan(0.1);
  });

  it("keeps related predicates well above unrelated ones", async () => {
    const [birth, starring] = await sim.scores("born", ["birth date", "starring"]);
    expect(birth).toBeGreaterThan(0.5);
    expect(starring).toBeLessThan(0.1);
    const founders = await sim.scores("founded", ["founder", "founders", "foundedBy"]);
    for (const s of founders) expect(s).toBeGreaterThan(0.9);
    const [played] = await sim.scores("played", ["starring"]);
    expect(played).toBeGreaterThan(0.6);
  });

  it("returns scores in [0, 1], one per candidate, and 1 for identical labels", async () => {
    const scores = await sim.scores("release date", ["release date", "", "zzz", "Release_Date"]);
    expect(scores).toHaveLength(4);
    for (const s of scores) {
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThanOrEqual(1);
    }
    expect(scores[0]).toBeCloseTo(1, 5);
    expect(scores[3]).toBeCloseTo(1, 5);
    expect(scores[1]).toBe(0);
    expect(sim.kind).toBe("lexical");
  });

  it("tokenises camelCase, snake_case, kebab-case, digits, accents and URIs", () => {
    expect(tokenize("birthDate")).toEqual(["birth", "date"]);
    expect(tokenize("release_date")).toEqual(["release", "date"]);
    expect(tokenize("key-person")).toEqual(["key", "person"]);
    expect(tokenize("HTTPServer2x")).toEqual(["http", "server", "2", "x"]);
    expect(tokenize("Café Société")).toEqual(["cafe", "societe"]);
    expect(tokenize("http://dbpedia.org/ontology/almaMater")).toEqual(["alma", "mater"]);
    expect(tokenize("dbo:deathPlace")).toEqual(["death", "place"]);
  });

  it("takes related words from the table, a given lexicon, both, or neither", async () => {
    // a stand-in lexicon: "wed" is related to "spouse" (the table does not know "wed")
    const lexicon = { related: (w: string) => new Set(w === "wed" ? ["spouse"] : []) };
    const related = (relatedness: "table" | "lexicon" | "both" | "none") => createLexicalSimilarity({ relatedness, lexicon }).score;
    expect(related("table")("wife", "spouse")).toBeGreaterThan(0.5);
    expect(related("none")("wife", "spouse")).toBeLessThan(0.3);
    expect(related("lexicon")("wife", "spouse")).toBeLessThan(0.3);
    expect(related("lexicon")("wed", "spouse")).toBeGreaterThan(0.5);
    expect(related("table")("wed", "spouse")).toBeLessThan(0.3);
    expect(related("both")("wed", "spouse")).toBeGreaterThan(0.5);
    expect(related("both")("wife", "spouse")).toBeGreaterThan(0.5);
  });

  it("stems word families to one stem", () => {
    const families = [
      ["found", "founded", "founder", "founders", "founding"],
      ["release", "released", "releases", "releasing"],
      ["direct", "directed", "director", "directors"],
      ["star", "stars", "starred", "starring"],
      ["marry", "married", "marriage"],
      ["locate", "located", "location"],
    ];
    for (const fam of families) expect(new Set(fam.map(stem)).size, fam.join(",")).toBe(1);
  });

  it("scores at least 50k pairs per second", async () => {
    const labels = [...PERSON, ...FILM, ...ORG, ...BOOK];
    const queries = CASES.map((c) => c[0]);
    const fresh = createLexicalSimilarity();
    let n = 0;
    const t0 = performance.now();
    while (n < 100_000) for (const q of queries) n += (await fresh.scores(q, labels)).length;
    const perSec = n / ((performance.now() - t0) / 1000);
    console.log(`lexical: ${Math.round(perSec)} scores/s`);
    expect(perSec).toBeGreaterThan(50_000);
  });
});
