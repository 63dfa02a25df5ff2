// Reading and guarding the query in a model reply: formats accepted, prefixes completed, updates/SERVICE refused, rows capped.
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { completePrefixes, extractQuery, guardReply } from "./query-reply";

const LIMIT = DEFAULT_CONFIG.rowLimit;

const P = { ont: "http://ex.org/ont/", res: "http://ex.org/res/" };

describe("extractQuery", () => {
  it("reads a ```sparql block, JSON {sparql}, or a bare query; nothing else", () => {
    expect(extractQuery("Here it is:\n```sparql\nSELECT ?x WHERE { ?x ?p ?o }\n```\nDone.")).toBe("SELECT ?x WHERE { ?x ?p ?o }");
    expect(extractQuery('{"sparql": "ASK { ?s ?p ?o }"}')).toBe("ASK { ?s ?p ?o }");
    expect(extractQuery("```json\n{\"query\": \"ASK { ?s ?p ?o }\"}\n```")).toBe("ASK { ?s ?p ?o }");
    expect(extractQuery("PREFIX a: <http://a/>\nSELECT * WHERE { ?s a:p ?o }")).toMatch(/^PREFIX a:/);
    expect(extractQuery("I cannot answer that.")).toBeUndefined();
  });
});

describe("completePrefixes", () => {
  it("declares used, undeclared schema prefixes only (not inside strings or IRIs)", () => {
    const q = completePrefixes('SELECT ?x WHERE { res:A ont:p ?x . ?x <http://other/> "ont:not" }', P);
    expect(q.split("\n").filter((l) => l.startsWith("PREFIX"))).toEqual(["PREFIX ont: <http://ex.org/ont/>", "PREFIX res: <http://ex.org/res/>"]);
    expect(completePrefixes("PREFIX ont: <http://mine/>\nSELECT ?x WHERE { ?x ont:p ?y }", P)).not.toContain("http://ex.org/ont/");
  });
});

describe("guardReply", () => {
  it("accepts SELECT/ASK, marks aggregates, caps or adds LIMIT", () => {
    const sel = guardReply("SELECT ?x WHERE { ?x ont:p ?y }", P, LIMIT);
    expect(LIMIT).toBe(1000);
    expect(sel.ok && sel.value.sparql).toMatch(new RegExp(`LIMIT ${LIMIT}\\s*$`));
    // an evaluation run raises the cap: a LIMIT above the app's cap is kept, none is added below it
    const big = guardReply("SELECT ?x WHERE { ?x ont:p ?y } LIMIT 5000", P, 1_000_000);
    expect(big.ok && big.value.sparql).toMatch(/LIMIT 5000$/);
    const lowered = guardReply("SELECT ?x WHERE { ?x ont:p ?y } LIMIT 5000", P, LIMIT);
    expect(lowered.ok && lowered.value.sparql).toMatch(/LIMIT 1000\s*$/);
    const small = guardReply("SELECT ?x WHERE { ?x ont:p ?y } LIMIT 5", P, LIMIT);
    expect(small.ok && small.value.sparql).toBe("PREFIX ont: <http://ex.org/ont/>\nSELECT ?x WHERE { ?x ont:p ?y } LIMIT 5");
    const count = guardReply("SELECT (COUNT(?x) AS ?n) WHERE { ?x ont:p ?y }", P, LIMIT);
    expect(count.ok && count.value.aggregate).toBe(true);
    const ask = guardReply("ASK { res:A ont:p res:B }", P, LIMIT);
    expect(ask.ok && ask.value.kind).toBe("ASK");
  });

  it("declares the well-known prefixes a model's query uses undeclared, even when the KG's prefixes lack them", () => {
    const r = guardReply("```sparql\nSELECT ?x WHERE { ?x skos:prefLabel ?l } LIMIT 5\n```", {}, 1000);
    expect(r.ok && r.value.sparql).toBe("PREFIX skos: <http://www.w3.org/2004/02/skos/core#>\nSELECT ?x WHERE { ?x skos:prefLabel ?l } LIMIT 5");
  });

  it("refuses updates, syntax errors, CONSTRUCT and SERVICE with a reason the model can act on", () => {
    const reason = (text: string) => {
      const r = guardReply(text, P, LIMIT);
      return r.ok ? "accepted" : r.reason;
    };
    expect(reason("DELETE WHERE { ?s ?p ?o }")).toMatch(/refused: Only read queries/);
    expect(reason("SELECT ?x WHERE { ?x ont:p ")).toMatch(/refused: SPARQL syntax error/);
    expect(reason("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }")).toMatch(/write a SELECT or ASK/);
    expect(reason("SELECT ?x WHERE { SERVICE <http://evil/> { ?x ?p ?o } }")).toMatch(/SERVICE/);
    expect(reason("no query here")).toMatch(/no SPARQL query found/);
  });
});
