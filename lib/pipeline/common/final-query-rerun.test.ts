// The edited-final-query re-run: who handles which correction, and the guard an edited query passes before it is stored.
import { describe, expect, it } from "vitest";
import { chattyKgStrategy } from "@/lib/pipeline/chatty-kg/strategy";
import { llmOnlyStrategy } from "@/lib/pipeline/baselines/llm-only";
import { finalQueryRerun, guardEditedQuery, rerunFor } from "./final-query-rerun";

describe("final-query re-run", () => {
  it("a strategy's own re-run takes its step corrections; every strategy takes an edited final query", () => {
    expect(rerunFor(chattyKgStrategy, "vertex")).toBe(chattyKgStrategy.rerun);
    expect(rerunFor(chattyKgStrategy, "final-query")).toBe(finalQueryRerun);
    expect(rerunFor(llmOnlyStrategy, "final-query")).toBe(finalQueryRerun);
    expect(() => rerunFor(llmOnlyStrategy, "vertex")).toThrow(/cannot re-run a turn from this step/);
  });

  it("declares the KG's prefixes, caps the rows, and refuses updates, CONSTRUCT, SERVICE and syntax errors with the reason", () => {
    const q = guardEditedQuery({ kind: "final-query", query: "SELECT ?x WHERE { ?x ex:p 1 }" }, { ex: "http://ex.org/" }, 50);
    expect(q.sparql).toContain("PREFIX ex: <http://ex.org/>");
    expect(q.sparql).toMatch(/LIMIT 50/);
    const refused = (query: string) => () => guardEditedQuery({ kind: "final-query", query }, {}, 50);
    expect(refused("DELETE WHERE { ?s ?p ?o }")).toThrow(/cannot run.*update/);
    expect(refused("CONSTRUCT WHERE { ?s ?p ?o }")).toThrow(/SELECT or ASK/);
    expect(refused("SELECT * WHERE { SERVICE <http://evil/> { ?s ?p ?o } }")).toThrow(/SERVICE/);
    expect(refused("SELECT ?x WHERE { ?x ")).toThrow(/syntax error/i);
  });
});
