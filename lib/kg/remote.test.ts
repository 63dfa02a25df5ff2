import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRemoteKg } from "./remote";
import { startSparqlEndpoint, type TestSparqlEndpoint } from "@/test/helpers/sparql-endpoint";
import { AppError, isAppError } from "@/lib/errors";

const TTL = readFileSync(new URL("../../test/fixtures/kg-remote/books.ttl", import.meta.url), "utf8");
const PREFIXES = "PREFIX ex: <http://example.org/> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> PREFIX schema: <http://schema.org/>\n";

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

let ep: TestSparqlEndpoint;
beforeAll(async () => {
  ep = await startSparqlEndpoint({ turtle: TTL });
});
afterAll(async () => {
  await ep.close();
});
beforeEach(() => {
  ep.behave();
  ep.requests.length = 0;
});

describe("createRemoteKg: results", () => {
  it("runs SELECT over GET and returns SPARQL JSON terms", async () => {
    const kg = createRemoteKg({ url: ep.url });
    const r = await kg.select(`${PREFIXES}SELECT ?label WHERE { ex:hp1 rdfs:label ?label } ORDER BY ?label`);
    expect(r.head.vars).toEqual(["label"]);
    expect(r.results.bindings).toEqual([
      { label: { type: "literal", value: "Harry Potter and the Philosopher's Stone", "xml:lang": "en" } },
      { label: { type: "literal", value: "Harry Potter à l'école des sorciers", "xml:lang": "fr" } },
    ]);
    expect(ep.requests).toHaveLength(1);
    expect(ep.requests[0].method).toBe("GET");
    expect(ep.requests[0].accept).toContain("application/sparql-results+json");
  });

  it("sends a query that uses rdfs: undeclared with the prefix declared (a strict endpoint answers it)", async () => {
    const kg = createRemoteKg({ url: ep.url });
    const r = await kg.select("PREFIX ex: <http://example.org/> SELECT ?label WHERE { ex:hp1 rdfs:label ?label }");
    expect(r.results.bindings).toHaveLength(2);
    expect(ep.requests[0].query).toMatch(/^PREFIX rdfs: <http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#>\nPREFIX ex:/);
  });

  it("keeps datatypes, IRIs and blank nodes", async () => {
    const kg = createRemoteKg({ url: ep.url });
    const r = await kg.select(`${PREFIXES}SELECT ?d ?n ?a ?b WHERE { ex:hp1 schema:datePublished ?d ; schema:numberOfPages ?n ; schema:author ?a . ex:blank schema:author ?b }`);
    const row = r.results.bindings[0];
    expect(row.d).toEqual({ type: "literal", value: "1997-06-26", datatype: "http://www.w3.org/2001/XMLSchema#date" });
    expect(row.n).toEqual({ type: "literal", value: "223", datatype: "http://www.w3.org/2001/XMLSchema#integer" });
    expect(row.a).toEqual({ type: "uri", value: "http://example.org/jkr" });
    expect(row.b.type).toBe("bnode");
  });

  it("uses POST with a form body for long queries, and in POST mode", async () => {
    const kg = createRemoteKg({ url: ep.url });
    const filler = `# ${"x".repeat(3000)}\n`;
    const r = await kg.select(`${filler}${PREFIXES}SELECT ?s WHERE { ?s rdfs:label "Harry Potter"@en }`);
    expect(r.results.bindings).toEqual([{ s: { type: "uri", value: "http://example.org/harry" } }]);
    expect(ep.requests[0].method).toBe("POST");
    expect(ep.requests[0].contentType).toBe("application/x-www-form-urlencoded");
    expect(ep.requests[0].query).toContain(filler.trim());

    const postKg = createRemoteKg({ url: ep.url, method: "POST" });
    expect(await postKg.ask(`${PREFIXES}ASK { ex:harry a schema:Person }`)).toBe(true);
    expect(ep.requests[1].method).toBe("POST");
  });

  it("answers ASK true and false", async () => {
    const kg = createRemoteKg({ url: ep.url, method: "GET" });
    expect(await kg.ask(`${PREFIXES}ASK { ex:harry a schema:Person }`)).toBe(true);
    expect(await kg.ask(`${PREFIXES}ASK { ex:harry a schema:Book }`)).toBe(false);
    const q = await kg.query(`${PREFIXES}ASK { ex:harry a schema:Book }`);
    expect(q).toEqual({ kind: "ASK", head: {}, boolean: false });
  });

  it("returns CONSTRUCT and DESCRIBE graphs as triples, requesting N-Triples", async () => {
    const kg = createRemoteKg({ url: ep.url });
    const g = await kg.construct(`${PREFIXES}CONSTRUCT { ?b schema:author ?a } WHERE { ?b a schema:Book ; schema:author ?a }`);
    expect(g.triples).toHaveLength(2);
    expect(g.triples).toContainEqual({
      subject: { type: "uri", value: "http://example.org/hp2" },
      predicate: { type: "uri", value: "http://schema.org/author" },
      object: { type: "uri", value: "http://example.org/jkr" },
    });
    expect(ep.requests[0].accept?.startsWith("application/n-triples")).toBe(true);
    const d = await kg.query(`${PREFIXES}DESCRIBE ex:harry`);
    expect(d.kind).toBe("DESCRIBE");
    if (d.kind === "DESCRIBE") expect(d.triples.some((t) => t.object.value === "A fictional wizard.")).toBe(true);
  });

  it("reads a Turtle graph when the server ignores the N-Triples preference", async () => {
    ep.misbehave({ kind: "body", contentType: "text/turtle", body: '@prefix ex: <http://example.org/> . ex:a ex:p "x"@en , 3 .' });
    const g = await createRemoteKg({ url: ep.url }).construct("CONSTRUCT { ?s ?p ?o } WHERE { ?s ?p ?o }");
    expect(g.triples.map((t) => t.object)).toEqual(
      expect.arrayContaining([
        { type: "literal", value: "x", "xml:lang": "en" },
        { type: "literal", value: "3", datatype: "http://www.w3.org/2001/XMLSchema#integer" },
      ]),
    );
  });

  it("accepts Virtuoso's SPARQL 1.0 'typed-literal' terms", async () => {
    ep.misbehave({
      kind: "body",
      contentType: "application/sparql-results+json",
      body: JSON.stringify({ head: { link: [], vars: ["n"] }, results: { distinct: false, ordered: true, bindings: [{ n: { type: "typed-literal", datatype: "http://www.w3.org/2001/XMLSchema#integer", value: "5" } }] } }),
    });
    const r = await createRemoteKg({ url: ep.url }).select("SELECT ?n WHERE { ?s ?p ?n }");
    expect(r.results.bindings[0].n).toEqual({ type: "literal", value: "5", datatype: "http://www.w3.org/2001/XMLSchema#integer" });
  });

  it("records Virtuoso's X-SPARQL-MaxRows when the reply reached that server-side row cap", async () => {
    const rows = (n: number) => JSON.stringify({ head: { vars: ["s"] }, results: { bindings: Array.from({ length: n }, (_, i) => ({ s: { type: "uri", value: `http://e/${i}` } })) } });
    const replyWith = (n: number, cap?: string): typeof fetch => async () =>
      new Response(rows(n), { headers: { "content-type": "application/sparql-results+json", ...(cap ? { "x-sparql-maxrows": cap } : {}) } });
    const capped = await createRemoteKg({ url: ep.url, fetch: replyWith(3, "3") }).select("SELECT ?s WHERE { ?s ?p ?o }");
    expect(capped.serverRowCap).toBe(3);
    expect(capped.results.bindings).toHaveLength(3);
    // fewer rows than the cap (or no header): the result is complete
    expect((await createRemoteKg({ url: ep.url, fetch: replyWith(2, "3") }).select("SELECT ?s WHERE { ?s ?p ?o }")).serverRowCap).toBeUndefined();
    expect((await createRemoteKg({ url: ep.url, fetch: replyWith(3) }).select("SELECT ?s WHERE { ?s ?p ?o }")).serverRowCap).toBeUndefined();
  });

  it("runs a sorted query above Virtuoso's sorted-TOP cap (SR353) with its LIMIT lowered, and says when rows were cut", async () => {
    // a fake Virtuoso with a sorted-TOP cap of 3 over 5 subjects
    const sent: string[] = [];
    const fakeVirtuoso: typeof fetch = async (input) => {
      const q = new URL(String(input)).searchParams.get("query") ?? "";
      sent.push(q);
      const limit = Number(/LIMIT (\d+)/i.exec(q)?.[1] ?? Infinity);
      const offset = Number(/OFFSET (\d+)/i.exec(q)?.[1] ?? 0);
      if (/ORDER BY/i.test(q) && offset + limit > 3) {
        return new Response(`Virtuoso 22023 Error SR353: Sorted TOP clause specifies more then ${offset + limit} rows to sort. Only 3 are allowed. Either decrease the offset and/or row count or use a scrollable cursor`, { status: 500, headers: { "content-type": "text/plain" } });
      }
      const rows = Array.from({ length: 5 }, (_, i) => ({ s: { type: "uri", value: `http://e/${i}` } })).slice(offset, offset + limit);
      return new Response(JSON.stringify({ head: { vars: ["s"] }, results: { bindings: rows } }), { headers: { "content-type": "application/sparql-results+json" } });
    };
    const kg = createRemoteKg({ url: ep.url, fetch: fakeVirtuoso });
    const cut = await kg.select("SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 1000");
    expect(cut.results.bindings.map((b) => b.s.value)).toEqual(["http://e/0", "http://e/1", "http://e/2"]);
    expect(cut.serverRowCap).toBe(3);
    expect(sent).toHaveLength(2);
    // the cap is remembered: the next sorted query is lowered before it is sent; with an OFFSET the LIMIT is what fits
    const page = await kg.select("SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s OFFSET 1 LIMIT 1000");
    expect(page.results.bindings).toHaveLength(2);
    expect(sent).toHaveLength(3);
    expect(sent[2]).toMatch(/LIMIT 2/);
    // a result that fits under the cap is complete: no cut reported
    const small = await kg.select("SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s LIMIT 2");
    expect(small.serverRowCap).toBeUndefined();
    // an OFFSET at the cap cannot be helped: the endpoint's own error stands
    const e = await failure(kg.select("SELECT ?s WHERE { ?s ?p ?o } ORDER BY ?s OFFSET 3 LIMIT 1"));
    expect(e.code).toBe("kg_http");
    expect(e.message).toContain("SR353");
  });

  it("sends custom headers (e.g. auth) and preserves URL parameters of the endpoint", async () => {
    const kg = createRemoteKg({ url: `${ep.url}?timeout=5000`, headers: { authorization: "Bearer secret-token" } });
    await kg.ask("ASK { ?s ?p ?o }");
    expect(ep.requests[0].headers.authorization).toBe("Bearer secret-token");
    expect(ep.requests[0].headers["user-agent"]).toMatch(/^Chatty-KG\//);
    const sent = new URL(ep.requests[0].url, ep.origin);
    expect(sent.searchParams.get("timeout")).toBe("5000");
    expect(sent.searchParams.get("query")).toBe("ASK { ?s ?p ?o }");
    expect(kg.info).toMatchObject({ kind: "remote", name: new URL(ep.url).host });
  });
});

describe("createRemoteKg: refusals and failures", () => {
  it("refuses updates before any HTTP request is made", async () => {
    const kg = createRemoteKg({ url: ep.url });
    for (const q of ["DROP ALL", "INSERT DATA { <http://a> <http://b> <http://c> }", "DELETE WHERE { ?s ?p ?o }"]) {
      const e = await failure(kg.query(q));
      expect(e.code).toBe("sparql_forbidden");
    }
    expect((await failure(kg.select("SELECT ?s WHERE { ?s ?p }"))).code).toBe("sparql_syntax");
    expect(ep.requests).toHaveLength(0);
  });

  it("reports 4xx/5xx with status and a snippet of the body", async () => {
    ep.misbehave({ kind: "status", status: 500, body: "Virtuoso 37000 Error SP030: SPARQL compiler, line 1: syntax error" });
    const e = await failure(createRemoteKg({ url: ep.url }).select("SELECT * WHERE { ?s ?p ?o }"));
    expect(e.code).toBe("kg_http");
    expect(e.details).toMatchObject({ status: 500 });
    expect(e.message).toContain("HTTP 500");
    expect(e.message).toContain("SP030: SPARQL compiler");

    ep.misbehave({ kind: "status", status: 404, contentType: "text/html", body: "<html><body><h1>Page not found</h1><p>Try /sparql</p></body></html>" });
    const e2 = await failure(createRemoteKg({ url: ep.url }).ask("ASK { ?s ?p ?o }"));
    expect(e2.code).toBe("kg_http");
    expect(e2.message).toContain("HTTP 404");
    expect(e2.message).toContain("Page not found Try /sparql");
    expect(e2.message).not.toContain("<h1>");
  });

  it("explains an HTML reply with status 200", async () => {
    ep.misbehave({ kind: "html" });
    const e = await failure(createRemoteKg({ url: ep.url }).select("SELECT * WHERE { ?s ?p ?o }"));
    expect(e.code).toBe("kg_bad_response");
    expect(e.message).toMatch(/HTML page/);
    expect(e.message).toContain("Welcome to the query editor");
  });

  it("rejects non-JSON and wrongly shaped JSON", async () => {
    ep.misbehave({ kind: "body", contentType: "application/sparql-results+xml", body: "<?xml version='1.0'?><sparql/>" });
    expect((await failure(createRemoteKg({ url: ep.url }).select("SELECT * WHERE { ?s ?p ?o }"))).code).toBe("kg_bad_response");
    ep.misbehave({ kind: "body", contentType: "application/json", body: '{"head":{"vars":["s"]},"results":{"bindings":[{"s":{"type":"weird","value":1}}]}}' });
    const e = await failure(createRemoteKg({ url: ep.url }).select("SELECT * WHERE { ?s ?p ?o }"));
    expect(e.code).toBe("kg_bad_response");
    expect(e.message).toMatch(/unexpected shape/);
    ep.misbehave({ kind: "body", contentType: "application/json", body: '{"head":{}}' });
    expect((await failure(createRemoteKg({ url: ep.url }).ask("ASK { ?s ?p ?o }"))).code).toBe("kg_bad_response");
  });

  it("reports an unreachable port as kg_unreachable with the host", async () => {
    const port = await freePort();
    const e = await failure(createRemoteKg({ url: `http://127.0.0.1:${port}/sparql` }).ask("ASK { ?s ?p ?o }"));
    expect(e.code).toBe("kg_unreachable");
    expect(e.message).toContain(`127.0.0.1:${port}`);
    expect(e.message).toMatch(/refused/);
  });

  it("reports an unknown host as kg_unreachable", async () => {
    const e = await failure(createRemoteKg({ url: "http://no-such-host.invalid/sparql", timeoutMs: 5000 }).ask("ASK { ?s ?p ?o }"));
    expect(e.code).toBe("kg_unreachable");
    expect(e.message).toContain("no-such-host.invalid");
  });

  it("reports a closed connection as kg_unreachable", async () => {
    ep.misbehave({ kind: "close" });
    const e = await failure(createRemoteKg({ url: ep.url }).ask("ASK { ?s ?p ?o }"));
    expect(e.code).toBe("kg_unreachable");
    expect(e.message).toMatch(/closed the connection/);
  });

  it("times out a server that never answers, within the timeout", async () => {
    ep.misbehave({ kind: "hang" });
    const t0 = Date.now();
    const e = await failure(createRemoteKg({ url: ep.url, timeoutMs: 300 }).ask("ASK { ?s ?p ?o }"));
    const took = Date.now() - t0;
    expect(e.code).toBe("kg_timeout");
    expect(took).toBeGreaterThanOrEqual(280);
    expect(took).toBeLessThan(1500);
  });

  it("times out a reply whose body never ends; a query's own timeout wins over the default", async () => {
    ep.misbehave({ kind: "hang-body" });
    const t0 = Date.now();
    const e = await failure(createRemoteKg({ url: ep.url, timeoutMs: 60_000 }).select("SELECT * WHERE { ?s ?p ?o }", { timeoutMs: 300 }));
    expect(e.code).toBe("kg_timeout");
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it("succeeds when a slow reply arrives within the timeout", async () => {
    ep.misbehave({ kind: "delay", ms: 150 });
    expect(await createRemoteKg({ url: ep.url, timeoutMs: 2000 }).ask("ASK { ?s ?p ?o }")).toBe(true);
  });

  it("stops at the caller's abort signal with 'aborted'", async () => {
    ep.misbehave({ kind: "hang" });
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 100);
    const e = await failure(createRemoteKg({ url: ep.url, timeoutMs: 10_000 }).ask("ASK { ?s ?p ?o }", { signal: ac.signal }));
    expect(e.code).toBe("aborted");
    expect(Date.now() - t0).toBeLessThan(1000);
    // already aborted: no request at all
    const before = ep.requests.length;
    expect((await failure(createRemoteKg({ url: ep.url }).ask("ASK { ?s ?p ?o }", { signal: AbortSignal.abort() }))).code).toBe("aborted");
    expect(ep.requests.length).toBe(before);
  });

  it("cuts off a reply larger than the cap", async () => {
    ep.misbehave({ kind: "huge", bytes: 3 * 1024 * 1024 });
    const e = await failure(createRemoteKg({ url: ep.url, maxResponseBytes: 1024 * 1024 }).select("SELECT * WHERE { ?s ?p ?o }"));
    expect(e.code).toBe("kg_bad_response");
    expect(e.message).toMatch(/larger than 1 MB/);
  });

  it("refuses non-http(s) URLs", () => {
    for (const url of ["file:///etc/passwd", "ftp://example.org/sparql", "not a url"]) {
      try {
        createRemoteKg({ url });
        expect.unreachable();
      } catch (e) {
        expect(isAppError(e, "bad_request")).toBe(true);
      }
    }
  });

  it("refuses queries after close()", async () => {
    const kg = createRemoteKg({ url: ep.url });
    await kg.close();
    expect((await failure(kg.ask("ASK { ?s ?p ?o }"))).code).toBe("kg_unavailable");
  });
});

describe("createRemoteKg: profile", () => {
  it("applies the preset of a known endpoint, with the caller's overrides on top", () => {
    const kg = createRemoteKg({ url: "https://dbpedia.org/sparql", profile: { language: "de" } });
    expect(kg.profile.labelSearch).toBe("virtuoso");
    expect(kg.profile.language).toBe("de");
    expect(createRemoteKg({ url: "https://query.wikidata.org/sparql" }).profile.typePredicates).toEqual(["http://www.wikidata.org/prop/direct/P31"]);
    expect(createRemoteKg({ url: ep.url }).profile.labelSearch).toBe("contains");
    expect(createRemoteKg({ url: ep.url, profile: { labelSearch: "index" } }).profile.labelSearch).toBe("contains");
  });

  it("searches labels through the profile's adapter", async () => {
    const hits = await createRemoteKg({ url: ep.url }).searchLabels("harry potter", { limit: 3 });
    expect(hits[0]).toMatchObject({ iri: "http://example.org/harry", label: "Harry Potter", lang: "en", score: 1 });
    expect(hits).toHaveLength(3);
  });
});

async function freePort(): Promise<number> {
  const s = http.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as AddressInfo;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
