// POST /api/sparql end to end (route handler, session cookie, registry, sample KG): read-only, errors located, rows capped.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ApiErrorBody, SparqlResponse } from "@/lib/api/contract";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));

let tmp: TempDb;
let POST: (request: Request) => Promise<Response>;

beforeAll(async () => {
  tmp = await createTempDb();
  process.env.DATABASE_URL = tmp.url;
  process.env.SESSION_SECRET = "route-test-secret-0123456789abcdef";
  ({ POST } = await import("./route"));
});
afterAll(async () => {
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await tmp.close();
});

async function post(body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await POST(new Request("http://localhost/api/sparql", { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } }));
  return { status: res.status, json: await res.json() };
}

describe("POST /api/sparql", () => {
  it("runs a query on the sample KG with labels for the IRIs, and sets a session cookie", async () => {
    const { status, json } = await post({
      kgId: "sample",
      query: "SELECT ?book WHERE { ?book <http://example.org/chatty-kg/ontology/author> <http://example.org/chatty-kg/resource/J_K_Rowling> }",
    });
    expect(status).toBe(200);
    const r = json as SparqlResponse;
    expect(r.truncated).toBe(false);
    expect(r.rowCap).toBe(10_000);
    expect(r.result.kind).toBe("SELECT");
    const stone = "http://example.org/chatty-kg/resource/Harry_Potter_and_the_Philosophers_Stone";
    expect(r.labels[stone]).toMatch(/Philosopher/);
    expect(jar.get("ckg_session")).toMatch(/\./);
  });

  it("refuses updates with 403 and runs nothing", async () => {
    const { status, json } = await post({ kgId: "sample", query: "DELETE WHERE { ?s ?p ?o }" });
    expect(status).toBe(403);
    expect((json as ApiErrorBody).error.code).toBe("sparql_forbidden");
    const count = await post({ kgId: "sample", query: "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }" });
    const n = (count.json as SparqlResponse).result as unknown as { results: { bindings: { n: { value: string } }[] } };
    expect(Number(n.results.bindings[0].n.value)).toBeGreaterThan(2000);
  });

  it("answers a syntax error with 400 and the line and column", async () => {
    const { status, json } = await post({ kgId: "sample", query: "SELECT ?s\nWHERE { ?s ?p }" });
    expect(status).toBe(400);
    const { error } = json as ApiErrorBody;
    expect(error.code).toBe("sparql_syntax");
    expect(error.where?.line).toBe(2);
    expect(error.where?.column).toBeGreaterThan(0);
  });

  it("runs a query that uses rdfs: without a PREFIX line, and returns the query as it ran", async () => {
    const query = "SELECT ?x WHERE { ?x rdfs:label ?l }";
    const { status, json } = await post({ kgId: "sample", query });
    expect(status).toBe(200);
    const r = json as SparqlResponse;
    expect((r.result as { results: { bindings: unknown[] } }).results.bindings.length).toBeGreaterThan(10);
    expect(r.declared).toEqual({ prefixes: ["rdfs"], query: `PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>\n${query}` });
    const own = await post({ kgId: "sample", query: "PREFIX rdfs: <http://example.org/not-rdfs#> SELECT ?x WHERE { ?x rdfs:label ?l }" });
    expect((own.json as SparqlResponse).declared).toBeUndefined();
    expect(((own.json as SparqlResponse).result as { results: { bindings: unknown[] } }).results.bindings).toHaveLength(0);
  });

  it("refuses federated SERVICE queries unless the server allows them", async () => {
    const { status, json } = await post({ kgId: "sample", query: "SELECT * WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }" });
    expect(status).toBe(403);
    expect((json as ApiErrorBody).error.message).toContain("SPARQL_ALLOW_SERVICE");
  });

  it("caps a huge result at 10,000 rows and says so", async () => {
    const { status, json } = await post({ kgId: "sample", query: "SELECT ?a ?b WHERE { ?a ?p ?o . ?b ?q ?r }" });
    expect(status).toBe(200);
    const r = json as SparqlResponse;
    expect(r.truncated).toBe(true);
    expect((r.result as { results: { bindings: unknown[] } }).results.bindings).toHaveLength(10_000);
  });

  it("answers 404 for a KG the session does not own and 400 for a bad body", async () => {
    expect((await post({ kgId: "not-mine", query: "ASK {}" })).status).toBe(404);
    expect((await post({ kgId: "sample" })).status).toBe(400);
  });

  it("answers SELECT * with the columns in the order the query names the variables", async () => {
    const { json } = await post({ kgId: "sample", query: "SELECT * WHERE { ?s ?p ?o } LIMIT 2" });
    expect(((json as SparqlResponse).result as { head: { vars: string[] } }).head.vars).toEqual(["s", "p", "o"]);
    const named = await post({ kgId: "sample", query: "SELECT ?o ?s WHERE { ?s ?p ?o } LIMIT 2" });
    expect(((named.json as SparqlResponse).result as { head: { vars: string[] } }).head.vars).toEqual(["o", "s"]);
  });
});
