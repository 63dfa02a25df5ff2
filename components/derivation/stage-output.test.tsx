// The QIR card lists the QIR's constraints; candidate queries show the modifiers they carry (server-rendered markup).
import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import type { CandidateQuery, Qir } from "@/lib/pipeline/chatty-kg/state";
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
});
