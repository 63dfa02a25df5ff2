import { describe, expect, it } from "vitest";
import { prepareQuery } from "./query-guard";

const P = { ex: "http://ex.org/" };

describe("prepareQuery", () => {
  it("declares the summary's prefixes the query uses and caps a SELECT's rows, keeping the query as written for the user", () => {
    const r = prepareQuery("```sparql\nSELECT ?x WHERE { ?x ex:p 1 }\n```", P, 50);
    expect(r).toMatchObject({ ok: true, kind: "SELECT", capped: true, written: "PREFIX ex: <http://ex.org/>\nSELECT ?x WHERE { ?x ex:p 1 }" });
    expect(r.ok && r.sparql).toMatch(/LIMIT 50$/);
    expect(prepareQuery("SELECT ?x WHERE { ?x ex:p 1 } LIMIT 5", P, 50)).toMatchObject({ ok: true, capped: false });
  });

  it("runs the query regenerated from its parse tree, so chained operators keep SPARQL's left-to-right grouping", () => {
    const r = prepareQuery("SELECT ((10 - 2 - 3) AS ?x) ((8 / 2 * 4) AS ?y) WHERE {} LIMIT 1", P, 50);
    expect(r.ok && r.sparql).toMatch(/\(10\s+-\s+2\s*\)\s*-\s*3/);
    expect(r.ok && r.sparql).toMatch(/\(8\s+\/\s+2\s*\)\s*\*\s*4/);
    expect(r.ok && r.written).toContain("10 - 2 - 3");
  });

  it("refuses updates, CONSTRUCT and SERVICE, and gives syntax errors with line and column", () => {
    expect(prepareQuery("DELETE WHERE { ?s ?p ?o }", P, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/update/) });
    expect(prepareQuery("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }", P, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/write a SELECT or an ASK/) });
    expect(prepareQuery("SELECT * WHERE { SERVICE <http://other/sparql> { ?s ?p ?o } }", P, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/SERVICE/) });
    const bad = prepareQuery("SELECT ?x WHERE {\n  ?x ex:p ?y\n", P, 10);
    // the end of the query as written is line 2 (the PREFIX line added above it is not counted)
    expect(bad).toMatchObject({ ok: false, reason: expect.stringMatching(/^SPARQL syntax error at line 2, column \d+.*Expected one of/) });
    expect(prepareQuery("SELECT ?x WHERE { ?x ex:p ?y FILTER(?y > 1 }", P, 10)).toMatchObject({ ok: false, reason: expect.stringMatching(/^SPARQL syntax error at line 1,/) });
  });
});
