// Hardening, SPARQL typed in the panel: updates/LOAD/CLEAR refused (403) and the KG unchanged, SERVICE refused by
// default, a query with millions of rows capped with a visible flag, syntax errors located by line and column.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { SPARQL_ROW_CAP } from "@/lib/api/contract";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { runConsoleQuery } from "@/lib/server/sparql-console";
import { createHarness, type Harness } from "./harness";

let h: Harness;
let kg: KnowledgeGraph;
const count = async () => Number((await kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }")).results.bindings[0].n.value);

async function rejection(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: Error) => e,
  );
}

beforeAll(async () => {
  h = await createHarness();
  kg = await h.registry.getKg("panel", "sample");
});
afterAll(async () => h?.close());

describe("SPARQL panel", () => {
  it("refuses UPDATE, LOAD, CLEAR, DROP and INSERT DATA with 403; nothing reaches the store", async () => {
    const before = await count();
    h.queries.length = 0;
    for (const q of [
      "DELETE WHERE { ?s ?p ?o }",
      "LOAD <http://example.org/evil.ttl>",
      "CLEAR ALL",
      "DROP GRAPH <http://example.org/g>",
      'INSERT DATA { <http://e/a> <http://e/b> "c" }',
      "PREFIX ex: <http://e/> SELECT * WHERE { ?s ?p ?o } ; CLEAR DEFAULT",
    ]) {
      const e = await rejection(runConsoleQuery(kg, q));
      expect(isAppError(e, "sparql_forbidden") || isAppError(e, "sparql_syntax"), `${q}: ${e.message}`).toBe(true);
      if (isAppError(e, "sparql_forbidden")) expect(e.message).toMatch(/Only read queries/);
    }
    expect(h.queries).toEqual([]); // refused before the KG was asked anything
    expect(await count()).toBe(before);
  });

  it("refuses SERVICE to another host unless allowed", async () => {
    const q = "SELECT * WHERE { SERVICE <http://169.254.169.254/sparql> { ?s ?p ?o } }";
    const e = await rejection(runConsoleQuery(kg, q));
    expect(isAppError(e, "sparql_forbidden")).toBe(true);
    expect(e.message).toMatch(/SERVICE.*169\.254\.169\.254.*SPARQL_ALLOW_SERVICE=true/);
  });

  it("caps a query that would return millions of rows, with truncated: true", async () => {
    const triples = await count();
    expect(triples * triples).toBeGreaterThan(1_000_000);
    const started = Date.now();
    const r = await runConsoleQuery(kg, "SELECT * WHERE { ?a ?b ?c . ?d ?e ?f }");
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.truncated).toBe(true);
    expect(r.rowCap).toBe(SPARQL_ROW_CAP);
    expect(r.result.kind === "SELECT" && r.result.results.bindings.length).toBe(SPARQL_ROW_CAP);
  });

  it("flags a result the endpoint itself cut at its row cap (Virtuoso: 10,000, X-SPARQL-MaxRows) as truncated", async () => {
    const capped: KnowledgeGraph = {
      ...kg,
      query: async (q, o) => {
        const r = await kg.query(q, o);
        return r.kind === "SELECT" ? { ...r, results: { bindings: r.results.bindings.slice(0, 5) }, serverRowCap: 5 } : r;
      },
    };
    const r = await runConsoleQuery(capped, "SELECT ?s WHERE { ?s ?p ?o }");
    expect(r.truncated).toBe(true);
    expect(r.result.kind === "SELECT" && r.result.results.bindings.length).toBe(5);
  });

  it("reports a syntax error with its line and column", async () => {
    const e = await rejection(runConsoleQuery(kg, "SELECT ?s\nWHERE {\n  ?s ?p ?o ) .\n}"));
    expect(isAppError(e, "sparql_syntax")).toBe(true);
    expect(e.message).toMatch(/line 3, column \d+/);
    expect((e as { where?: { line?: number; column?: number } }).where).toMatchObject({ line: 3, column: expect.any(Number) });
  });
});
