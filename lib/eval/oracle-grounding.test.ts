import { describe, expect, it } from "vitest";
import {
  createOracleLog,
  equalsGold,
  ground,
  groundConstant,
  isQuestionSpan,
  leftoverSpans,
  noteDropped,
  noteGrounded,
  oracleTotals,
  misspeltSpan,
  overlapSpan,
  questionSpan,
  reviewedNormalisations,
  sameWord,
} from "./oracle-grounding";

describe("question spans", () => {
  it("match words case- and inflection-insensitively and return the question's own spelling", () => {
    expect(questionSpan("member", "Who are the members of The Paper Comets?")).toBe("members");
    expect(questionSpan("the paper comets", "Who are the members of The Paper Comets?")).toBe("The Paper Comets");
    expect(questionSpan("Mitglied", "Wer sind die Mitglieder von The Paper Comets?")).toBe("Mitglieder");
    expect(sameWord("released", "release")).toBe(true);
    expect(sameWord("countries", "country")).toBe(true);
  });

  it("refuse a phrase whose words are not contiguous in the question", () => {
    expect(isQuestionSpan("has teacher", "Who teaches Ann?")).toBe(false);
    expect(isQuestionSpan("record label", "Which label released it?")).toBe(false);
    expect(isQuestionSpan("performer", "Which albums did Mira Solberg release?")).toBe(false);
  });

  it("pick the question's words that overlap a target, and the leftover content words", () => {
    expect(overlapSpan("Jane Olsen", "Which club is Dr. Olsen in?")).toBe("Olsen");
    expect(overlapSpan("Harry Potter (book series)", "Who is the author of Harry Potter?")).toBe("Harry Potter");
    expect(overlapSpan("Zebra", "Who is the author of Harry Potter?")).toBeNull();
    expect(leftoverSpans("Which albums did Mira Solberg release?", ["albums", "Mira Solberg"])).toEqual(["release"]);
    expect(leftoverSpans("Wann wurde er geboren?", [])).toEqual(["geboren"]);
  });

  it("take the question's misspelt word for a name (the word as the user wrote it), never a short or far word", () => {
    expect(misspeltSpan("family Kingfisher", "Which kngfisher dives deepest?")).toBe("kngfisher");
    expect(misspeltSpan("Barn Owl", "Which own bird is this?")).toBeNull(); // three letters: never a typo
    expect(misspeltSpan("Woodpecker", "Which woodcutter lives here?")).toBeNull();
    expect(misspeltSpan("Kingfisher", "Which kingfishers dive?")).toBeNull(); // an inflection is a span, not a typo
  });
});

describe("reviewed normalisations", () => {
  it("turn number words, superlatives, dates in words and countries into what they stand for", () => {
    const of = (q: string, lang?: string) => reviewedNormalisations(q, lang).map((n) => `${n.kind}: ${n.from} → ${n.to}`);
    expect(of("Name three bands.")).toContain("number word: three → 3");
    expect(of("Nenne drei Bands.", "de")).toContain("number word: drei → 3");
    expect(of("Which is the longest song?")).toContain("superlative: longest → 1");
    expect(of("Which is the cheapest ticket?")).toContain("superlative: cheapest → 1");
    expect(of("Welches ist die günstigste Karte?", "de")).toContain("superlative: günstigste → 1");
    expect(of("What was released on 16 November 2001?")).toContain("date: 16 November 2001 → 2001-11-16");
    expect(of("Which bands are from Norway?", "en")).toEqual(expect.arrayContaining(["country: Norway → Norwegen", "country: Norway → NO"]));
    expect(of("Welche Bands kommen aus Norwegen?", "de")).toContain("country: Norwegen → Norway");
    expect(of("Which German bands are there?")).toContain("country: German → Germany");
    expect(of("Which bands are from the UK?")).toContain("country: UK → United Kingdom");
  });

  it("ground a wanted text through one, and the log records it", () => {
    const log = createOracleLog("question-grounded");
    const g = ground("Germany", "Which German bands are there?");
    expect(g).toMatchObject({ text: "Germany", via: "normalisation" });
    noteGrounded(log, g!);
    expect(log.normalisations).toEqual(["country: German → Germany"]);
    expect(ground("Germany", "Which bands are there?")).toBeNull();
  });
});

describe("constants of a final query", () => {
  const sources = { question: "Which three albums came out after 1999?", iris: ["http://ex.org/a"], texts: ["Blue Hour"] };
  it("are grounded by the question, an output or a normalisation, else refused", () => {
    expect(groundConstant({ kind: "number", value: "1999" }, sources)?.via).toBe("question");
    expect(groundConstant({ kind: "number", value: "3" }, sources)?.via).toBe("normalisation");
    expect(groundConstant({ kind: "iri", value: "http://ex.org/a" }, sources)?.via).toBe("output");
    expect(groundConstant({ kind: "iri", value: "http://www.w3.org/2001/XMLSchema#integer" }, sources)).not.toBeNull();
    expect(groundConstant({ kind: "literal", value: "Blue Hour" }, sources)?.via).toBe("output");
    expect(groundConstant({ kind: "number", value: "5" }, sources)).toBeNull();
    expect(groundConstant({ kind: "iri", value: "http://ex.org/b" }, sources)).toBeNull();
    expect(groundConstant({ kind: "literal", value: "Red Hour" }, sources)).toBeNull();
  });

  it("a decimal number written in the question is grounded whole (its point splits it into two words)", () => {
    const q = (question: string, language?: string) => ({ question, ...(language ? { language } : {}) });
    expect(groundConstant({ kind: "number", value: "199.925" }, q("Which units have a rated power of 199.925?"))?.via).toBe("question");
    expect(groundConstant({ kind: "number", value: "139.4620" }, q("Which units have 139.462 MW?"))?.via).toBe("question");
    expect(groundConstant({ kind: "number", value: "1250.5" }, q("Items priced 1,250.5 or more?"))?.via).toBe("question");
    expect(groundConstant({ kind: "number", value: "1.5" }, q("Welche kosten 1,5 Euro?", "de"))?.via).toBe("question");
    expect(groundConstant({ kind: "number", value: "135" }, q("Nodes at 135kV?"))?.via).toBe("question");
    expect(groundConstant({ kind: "number", value: "199.93" }, q("Which units have a rated power of 199.925?"))).toBeNull();
    expect(groundConstant({ kind: "number", value: "925.199" }, q("Which units have a rated power of 199.925?"))).toBeNull();
  });

  it("dropped ones are counted once per question and totalled over the run", () => {
    const a = createOracleLog("question-grounded");
    noteDropped(a, { kind: "number", value: "5" });
    noteDropped(a, { kind: "number", value: "5" });
    noteDropped(a, { kind: "literal", value: "x" });
    const b = createOracleLog("question-grounded");
    expect(a.dropped).toEqual(["number 5", 'literal "x"']);
    expect(oracleTotals([a, b, undefined])).toEqual({ questions: 2, dropped: 2, normalisations: 0, refused: 0 });
  });
});

describe("equal to the gold query", () => {
  it("ignores variable names, prefixes and layout, not constants", () => {
    const gold = "PREFIX ex: <http://ex.org/> SELECT ?x WHERE { ex:a ex:p ?x } LIMIT 3";
    expect(equalsGold(["SELECT ?y WHERE {\n <http://ex.org/a> <http://ex.org/p> ?y } LIMIT 3"], gold)).toBe(true);
    expect(equalsGold(["SELECT ?y WHERE { <http://ex.org/a> <http://ex.org/p> ?y }"], gold)).toBe(false);
    expect(equalsGold(["not sparql"], gold)).toBe(false);
    // COUNT(*) keeps its wildcard through the renaming
    const counted = "SELECT ?c WHERE { ?h <http://ex.org/cat> ?c } GROUP BY ?c ORDER BY DESC(COUNT(*)) LIMIT 3";
    expect(equalsGold([counted.replace(/\?c\b/g, "?k")], counted)).toBe(true);
  });
});
