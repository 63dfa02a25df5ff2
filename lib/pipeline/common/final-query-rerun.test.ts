// The edited-final-query re-run: who handles which correction, and the guard an edited query passes before it is stored.
import { describe, expect, it } from "vitest";
import type { Strategy, StrategyRerun } from "@/lib/pipeline/types";
import { finalQueryRerun, guardEditedQuery, rerunFor } from "./final-query-rerun";

// two stand-in strategies (common/ never imports a strategy's folder): one with its own step re-run, one without
const ownRerun: StrategyRerun = { kinds: ["vertex", "candidate"], check: () => {}, run: finalQueryRerun.run };
const notRun = (): never => {
  throw new Error("not run in this test");
};
const stepwise: Strategy = { id: "chatty-kg", label: "Stepwise", description: "", run: notRun, rerun: ownRerun };
const oneCall: Strategy = { id: "llm-only", label: "One call", description: "", run: notRun };

describe("final-query re-run", () => {
  it("a strategy's own re-run takes its step corrections; every strategy takes an edited final query", () => {
    expect(rerunFor(stepwise, "vertex")).toBe(ownRerun);
    expect(rerunFor(stepwise, "final-query")).toBe(finalQueryRerun);
    expect(rerunFor(oneCall, "final-query")).toBe(finalQueryRerun);
    expect(() => rerunFor(oneCall, "vertex")).toThrow(/One call cannot re-run a turn from this step/);
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
