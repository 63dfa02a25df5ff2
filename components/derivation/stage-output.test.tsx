// The QIR card lists the QIR's constraints; candidate queries show the modifiers they carry; one-call's retrieval says
// in a sentence what it made for the question and marks those examples (server-rendered markup).
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import type { CandidateQuery, Qir } from "@/lib/pipeline/chatty-kg/state";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { StageOutput } from "./stage-output";

const render = (stage: "qir" | "query-generation", output: unknown) =>
  renderToStaticMarkup(<StageOutput stage={stage} output={output} details={[]} events={[]} runs={{ byId: new Map(), byQuery: new Map() }} onOpenQuery={() => {}} onOpenEntity={() => {}} />);

const qir: Qir = {
  entities: [],
  unknowns: ["?h", "?r"],
  relations: ["rooms"],
  triples: [{ subject: "?h", relation: "rooms", object: "?r" }],
  target: "?h",
  questionType: "factoid",
  classes: [{ variable: "?h", mention: "hotel" }],
  order: [{ variable: "?r", direction: "desc" }],
  limit: 3,
};

describe("StageOutput", () => {
  it("shows the QIR's constraints under its triples, and none for a plain QIR", () => {
    const html = render("qir", qir);
    expect(html).toContain('data-testid="qir-constraints"');
    for (const c of ["?h is a hotel", "order by ?r desc", "limit 3"]) expect(html).toContain(c);
    expect(render("qir", { ...qir, classes: undefined, order: undefined, limit: undefined })).not.toContain("qir-constraints");
    // a stored output of a shape this version does not know shows the triples, not an error
    expect(render("qir", { ...qir, comparisons: [{ variable: "?r", op: ">" }] })).toContain('data-testid="qir-table"');
  });

  it("shows each candidate query's modifiers beside its number, and the query text as it runs", () => {
    const candidate: CandidateQuery = { id: 1, sparql: "SELECT DISTINCT ?h WHERE { ?h <http://ex.org/rooms> ?r. }\nORDER BY DESC (?r)\nLIMIT 3", kind: "SELECT", predicates: ["http://ex.org/rooms"], score: 1, modifiers: ["order by ?r desc", "limit 3"] };
    const html = render("query-generation", [candidate]);
    expect(html).toContain("#1 SELECT · score 1.000 · order by ?r desc; limit 3");
    expect(html).toContain("ORDER BY DESC (?r)\nLIMIT 3");
  });

  it("says what one-call made for the question in a sentence, and marks those examples", () => {
    const output = {
      examples: [
        { question: "What are the mill name and sails of the mills with a sails greater than 4?", similarity: 0.9, sparql: "SELECT ?n ?s WHERE { ?m <http://ex.org/sails> ?s }", source: "generated", made: true },
        { question: "How many mills are there?", similarity: 0.4, sparql: "SELECT (COUNT(?m) AS ?c) WHERE { ?m a <http://ex.org/mill> }", source: "generated" },
      ],
      cards: [],
      entities: [],
    };
    const event = (made: string[], ran: number): DerivationEvent => ({ type: "tool-call", stage: "retrieval", tool: "examples for this question", input: { question: "q", classes: ["mill"] }, output: { made, ran, queries: 30 }, ms: 212.4 });
    const html = (details: DerivationEvent[]) => renderToStaticMarkup(<StageOutput stage="retrieval" output={output} details={details} events={details} runs={{ byId: new Map(), byQuery: new Map() }} onOpenQuery={() => {}} onOpenEntity={() => {}} />);
    expect(html([event(["What are the mill name and sails …?"], 7)])).toContain("Made for this question from mill: 1 example, marked below (7 candidate queries, 30 queries in all, 212 ms).");
    expect(html([event(["a", "b"], 7)])).toContain("example 1 · made for this question · similarity 0.90");
    expect(html([event([], 6)])).toContain("Made for this question from mill: none (no candidate query gave a small, non-empty answer)");
    expect(html([event([], 0)])).toContain("none new (the stored examples have every structure these classes give)");
    const exhausted: DerivationEvent = { type: "tool-call", stage: "retrieval", tool: "examples for this question", input: { question: "q", classes: [] }, output: { made: [], ran: 0, queries: 0, skipped: "the KG's preparation ran every candidate query the generators make" }, ms: 1 };
    expect(html([exhausted])).toContain("Made for this question: none: the KG&#x27;s preparation ran every candidate query the generators make.");
    // a turn without the event (the feature off, or an older trace) says nothing about it
    expect(html([])).not.toContain("aimed-examples");
  });
});
