// Tests for the embedded KG: every RDF syntax, named graphs, result shapes, the read-only guard, atomic loads, timeouts, label search and warmed-up spare workers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isAppError } from "@/lib/errors";
import { createEmbeddedKg, startSpareWorker, type EmbeddedKg } from "./embedded-kg";

const FIX = fileURLToPath(new URL("../../../test/fixtures/rdf/", import.meta.url));
const fx = (name: string) => join(FIX, name);
const RDFS_LABEL = "http://www.w3.org/2000/01/rdf-schema#label";

async function caught(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("embedded KG: loading every syntax", () => {
  let kg: EmbeddedKg;
  beforeAll(async () => {
    kg = await createEmbeddedKg({
      name: "Fixtures",
      sources: [
        { path: fx("books.ttl") },
        { path: fx("cities.nt") },
        { path: fx("graphs.nq") },
        { path: fx("people.trig") },
        { path: fx("rivers.rdf"), graph: "http://example.org/graph/rivers" },
      ],
    });
  });
  afterAll(() => kg.close());

  it("counts the triples of all files", () => {
    expect(kg.info).toMatchObject({ kind: "embedded", name: "Fixtures", triples: 8 + 3 + 3 + 3 + 3 });
  });

  it("reads each syntax (format from the extension)", async () => {
    for (const [s, label] of [
      ["http://example.org/rowling", "J. K. Rowling"], // Turtle
      ["http://example.org/zurich", "Zürich"], // N-Triples
      ["http://example.org/paris", "Paris"], // N-Quads
      ["http://example.org/ada", "Ada Lovelace"], // TriG
      ["http://example.org/rhine", "Rhine"], // RDF/XML
    ]) {
      const r = await kg.select(`SELECT ?l WHERE { <${s}> <${RDFS_LABEL}> ?l }`);
      expect(r.results.bindings.map((b) => b.l.value)).toEqual([label]);
    }
  });

  it("keeps named graphs from quads, TriG and the per-file graph option", async () => {
    const r = await kg.select("SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } } ORDER BY ?g");
    expect(r.results.bindings.map((b) => b.g.value)).toEqual([
      "http://example.org/graph/geo",
      "http://example.org/graph/people",
      "http://example.org/graph/rivers",
    ]);
    expect(await kg.ask("ASK { GRAPH <http://example.org/graph/rivers> { <http://example.org/rhine> ?p ?o } }")).toBe(true);
    expect(await kg.ask("ASK { GRAPH <http://example.org/graph/geo> { <http://example.org/rhine> ?p ?o } }")).toBe(false);
  });

  it("returns SPARQL JSON: projection order, language tags, datatypes, xsd:string omitted", async () => {
    const r = await kg.select(
      `SELECT ?label ?s WHERE { ?s <${RDFS_LABEL}> ?label FILTER(?s IN (<http://example.org/hp1>, <http://example.org/rowling>)) } ORDER BY ?label`,
    );
    expect(r.head.vars).toEqual(["label", "s"]);
    expect(r.results.bindings).toContainEqual({
      label: { type: "literal", value: "Harry Potter à l'école des sorciers", "xml:lang": "fr" },
      s: { type: "uri", value: "http://example.org/hp1" },
    });
    expect(r.results.bindings).toContainEqual({
      label: { type: "literal", value: "J. K. Rowling" },
      s: { type: "uri", value: "http://example.org/rowling" },
    });
    const n = await kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
    expect(n.results.bindings[0].n).toEqual({ type: "literal", value: "20", datatype: "http://www.w3.org/2001/XMLSchema#integer" });
  });

  it("dispatches by kind: ASK, CONSTRUCT and DESCRIBE", async () => {
    expect(await kg.query("ASK { <http://example.org/hp1> a <http://example.org/Book> }")).toEqual({ kind: "ASK", head: {}, boolean: true });
    const c = await kg.construct("CONSTRUCT { ?s <http://example.org/name> ?l } WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l FILTER(lang(?l) = 'de') }");
    expect(c.triples).toEqual([
      {
        subject: { type: "uri", value: "http://example.org/zurich" },
        predicate: { type: "uri", value: "http://example.org/name" },
        object: { type: "literal", value: "Zürich", "xml:lang": "de" },
      },
    ]);
    const d = await kg.query("DESCRIBE <http://example.org/rowling>");
    expect(d.kind).toBe("DESCRIBE");
    expect("triples" in d && d.triples.some((t) => t.object.value === "1965-07-31" && t.object.type === "literal" && t.object.datatype?.endsWith("#date"))).toBe(true);
    await expect(kg.ask("SELECT * WHERE { ?s ?p ?o }")).rejects.toMatchObject({ code: "bad_request" });
  });

  it("refuses updates before they reach the store", async () => {
    const e = await caught(kg.query(`DELETE WHERE { ?s ?p ?o }`));
    expect(isAppError(e, "sparql_forbidden")).toBe(true);
    await expect(kg.query(`INSERT DATA { <http://a> <http://b> <http://c> }`)).rejects.toMatchObject({ code: "sparql_forbidden" });
    expect(await kg.ask("ASK { ?s ?p ?o }")).toBe(true);
    await expect(kg.query("SELEC nope")).rejects.toMatchObject({ code: "sparql_syntax" });
  });

  it("answers label search from the index, accent- and case-insensitive", async () => {
    const hits = await kg.searchLabels("zurich", { limit: 5 });
    expect(hits[0]).toMatchObject({ iri: "http://example.org/zurich", label: "Zürich", lang: "de" });
    const hp = await kg.searchLabels("harry potter", { limit: 5 });
    expect(hp.map((h) => h.iri)).toEqual(["http://example.org/hp1"]);
    expect(hp[0].lang).toBe("en"); // the profile's language wins the tie with the French label
  });

  it("survives hostile label-search strings without throwing or matching everything", async () => {
    for (const h of ['"', "'", "{ }", "} ; DROP ALL", "\n\n", "\\u0000", "🙂", "?s ?p ?o", "*", ")(", "a\"} UNION { ?s ?p ?o"]) {
      const hits = await kg.searchLabels(h, { limit: 50 });
      expect(Array.isArray(hits)).toBe(true);
      expect(hits.length).toBeLessThan(8);
    }
    expect(await kg.searchLabels("} ; DROP", { limit: 50 })).toEqual([]);
  });
});

describe("embedded KG: inline loads, atomic failure, timeouts", () => {
  let kg: EmbeddedKg;
  let dir: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "ekg-"));
    kg = await createEmbeddedKg({ timeoutMs: 20_000 });
  });
  afterAll(() => kg.close());

  it("loads from a string, into a named graph, and replaces the previous contents", async () => {
    await kg.loadString('<http://x/a> <http://www.w3.org/2000/01/rdf-schema#label> "Alpha" .', "ntriples");
    expect(kg.info.triples).toBe(1);
    const stats = await kg.loadString('@prefix x: <http://x/> . x:b <http://www.w3.org/2000/01/rdf-schema#label> "Beta" .', "text/turtle", {
      graph: "http://x/g",
    });
    expect(stats.triples).toBe(1);
    expect(await kg.ask("ASK { GRAPH <http://x/g> { <http://x/b> ?p ?o } }")).toBe(true);
    expect(await kg.ask("ASK { <http://x/a> ?p ?o }")).toBe(false);
    expect((await kg.searchLabels("beta", { limit: 3 }))[0].iri).toBe("http://x/b");
    // labels with escapes come back exactly as written, from the default graph and named graphs alike
    await kg.load([
      { text: '<http://x/q> <http://www.w3.org/2000/01/rdf-schema#label> "Say \\"hi\\"\\tnow \\u00e9t\\u00e9"@en .', format: "ntriples" },
      { text: '<http://x/r> <http://www.w3.org/2004/02/skos/core#prefLabel> "Río Grande" .', format: "ntriples", graph: "http://x/g2" },
    ]);
    expect(await kg.searchLabels("say hi", { limit: 3 })).toEqual([{ iri: "http://x/q", label: 'Say "hi"\tnow été', lang: "en", score: expect.any(Number) }]);
    expect((await kg.searchLabels("ETE", { limit: 3 }))[0]?.iri).toBe("http://x/q");
    expect((await kg.searchLabels("rio grande", { limit: 3 }))[0]).toMatchObject({ iri: "http://x/r", label: "Río Grande" });
  });

  it("reports a malformed file with its name and line, and keeps the previous data", async () => {
    await kg.load([{ path: fx("books.ttl") }]);
    const e = await caught(kg.load([{ path: fx("cities.nt") }, { path: fx("malformed.ttl") }]));
    expect(isAppError(e, "kg_load")).toBe(true);
    const err = e as { message: string; where?: { line?: number; column?: number; source?: string } };
    expect(err.where).toMatchObject({ source: "malformed.ttl", line: 5, column: 28 });
    expect(err.message).toMatch(/malformed\.ttl.*line 5/);
    // nothing of the failed load (not even the good cities.nt, nor malformed.ttl's first triple) is visible
    expect(kg.info.triples).toBe(8);
    expect(await kg.ask("ASK { <http://example.org/zurich> ?p ?o }")).toBe(false);
    expect(await kg.ask("ASK { <http://example.org/good> ?p ?o }")).toBe(false);
    expect(await kg.ask("ASK { <http://example.org/hp1> ?p ?o }")).toBe(true);
    expect((await kg.searchLabels("rowling", { limit: 1 }))[0].iri).toBe("http://example.org/rowling");
  });

  it("names unreadable files and unknown formats", async () => {
    await expect(kg.load([{ path: join(dir, "missing.ttl") }])).rejects.toMatchObject({ code: "kg_load", message: /missing\.ttl/ });
    writeFileSync(join(dir, "data.json"), "{}");
    await expect(kg.load([{ path: join(dir, "data.json") }])).rejects.toMatchObject({ code: "kg_load", message: /format/ });
    expect(kg.info.triples).toBe(8);
  });

  it("cuts off a runaway query, then answers the next one after reloading in the background", async () => {
    const lines: string[] = [];
    for (let i = 0; i < 3000; i++) lines.push(`<http://x/n${i}> <http://x/p> "${i}" .`);
    const file = join(dir, "big.nt");
    writeFileSync(file, lines.join("\n"));
    await kg.load([{ path: file }, { path: fx("books.ttl") }]);
    const slow = "SELECT (COUNT(*) AS ?n) WHERE { ?a <http://x/p> ?x . ?b <http://x/p> ?y . ?c <http://x/p> ?z }";
    const t0 = Date.now();
    const e = await caught(kg.select(slow, { timeoutMs: 300 }));
    expect(isAppError(e, "kg_timeout")).toBe(true);
    expect(Date.now() - t0).toBeLessThan(3000);
    // issued while the fresh worker is still reloading: waits for it and sees the same data
    const r = await kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
    expect(r.results.bindings[0].n.value).toBe(String(3000 + 8));
    expect((await kg.searchLabels("harry potter", { limit: 1 }))[0].iri).toBe("http://example.org/hp1");
  });

  it("stops a query when its signal aborts, and keeps working", async () => {
    const ac = new AbortController();
    const slow = kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?a <http://x/p> ?x . ?b <http://x/p> ?y . ?c <http://x/p> ?z }", { signal: ac.signal });
    setTimeout(() => ac.abort(), 200);
    const e = await caught(slow);
    expect(isAppError(e, "aborted")).toBe(true);
    expect(await kg.ask("ASK { <http://example.org/hp1> ?p ?o }")).toBe(true);
    const pre = new AbortController();
    pre.abort();
    await expect(kg.ask("ASK { ?s ?p ?o }", { signal: pre.signal })).rejects.toMatchObject({ code: "aborted" });
  });

  it("rejects queries after close", async () => {
    const other = await createEmbeddedKg();
    await other.close();
    await expect(other.ask("ASK { ?s ?p ?o }")).rejects.toMatchObject({ code: "kg_unavailable" });
  });
});

describe("embedded KG: other label-search kinds", () => {
  it("delegates to the SPARQL label search when the profile says contains", async () => {
    const kg = await createEmbeddedKg({ sources: [{ path: fx("books.ttl") }], profile: { labelSearch: "contains" } });
    try {
      expect(kg.profile.labelSearch).toBe("contains");
      const hits = await kg.searchLabels("Rowling", { limit: 3 });
      expect(hits[0]?.iri).toBe("http://example.org/rowling");
    } finally {
      await kg.close();
    }
  });
});

describe("embedded KG: a pre-started spare worker", () => {
  it("warms up on a scratch store, then serves a KG that holds only the user's data", async () => {
    const spare = startSpareWorker();
    const { warmUpMs } = await spare.ready;
    expect(warmUpMs).toBeGreaterThan(0);
    const kg = await createEmbeddedKg({ name: "On spare", worker: spare });
    try {
      // nothing of the warm-up's synthetic document is visible
      expect(await kg.ask("ASK { ?s ?p ?o }")).toBe(false);
      expect(await kg.searchLabels("thing 42", { limit: 5 })).toEqual([]);
      const stats = await kg.load([{ path: fx("books.ttl") }]);
      expect(stats.triples).toBeGreaterThan(0);
      const n = await kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
      expect(Number(n.results.bindings[0].n.value)).toBe(stats.triples);
      // the worker belongs to the KG now
      expect(spare.take()).toBeUndefined();
    } finally {
      await kg.close();
    }
  });

  it("can be taken before its warm-up ends: the load waits for it and ready still settles", async () => {
    const spare = startSpareWorker();
    const kg = await createEmbeddedKg({ sources: [{ path: fx("cities.nt") }], worker: spare });
    try {
      expect(kg.info.triples).toBeGreaterThan(0);
      expect((await spare.ready).warmUpMs).toBeGreaterThan(0);
    } finally {
      await kg.close();
    }
  });

  it("is stopped when closed untaken, or when the KG options are invalid", async () => {
    const a = startSpareWorker();
    await a.close();
    expect(isAppError(await caught(a.ready), "kg_unavailable")).toBe(true);
    expect(a.take()).toBeUndefined();
    const b = startSpareWorker();
    expect(isAppError(await caught(createEmbeddedKg({ timeoutMs: -1, worker: b })), "bad_request")).toBe(true);
    expect(b.take()).toBeUndefined();
    expect(isAppError(await caught(b.ready), "kg_unavailable")).toBe(true);
  });
});
