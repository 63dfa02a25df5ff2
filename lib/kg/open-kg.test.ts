import { afterAll, beforeAll, describe, expect, it } from "vitest";
import path from "node:path";
import { openKg, parseKgArg, type CreateEmbeddedKg } from "./open-kg";
import type { KnowledgeGraph } from "./types";
import { startSparqlEndpoint, type TestSparqlEndpoint } from "@/test/helpers/sparql-endpoint";
import { AppError, isAppError } from "@/lib/errors";

function thrown(fn: () => unknown): AppError {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected a throw");
}
async function rejected(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected a rejection");
}

describe("parseKgArg", () => {
  it.each([
    ["https://dbpedia.org/sparql", { kind: "endpoint", url: "https://dbpedia.org/sparql" }],
    ["  http://127.0.0.1:7001/sparql?x=1 ", { kind: "endpoint", url: "http://127.0.0.1:7001/sparql?x=1" }],
    ["HTTPS://query.wikidata.org/sparql", { kind: "endpoint", url: "HTTPS://query.wikidata.org/sparql" }],
    ["data/a.ttl", { kind: "files", paths: ["data/a.ttl"] }],
    ["a.ttl, /abs/b.nt,,c.rdf", { kind: "files", paths: ["a.ttl", "/abs/b.nt", "c.rdf"] }],
    ["sample", { kind: "sample" }],
  ])("%s", (arg, spec) => {
    expect(parseKgArg(arg)).toEqual(spec);
  });

  it.each(["file:///etc/passwd", "ftp://example.org/sparql", "javascript://x", "", "  ", ",,"])("refuses %j", (arg) => {
    expect(thrown(() => parseKgArg(arg)).code).toBe("bad_request");
  });
});

describe("openKg", () => {
  let ep: TestSparqlEndpoint;
  beforeAll(async () => {
    ep = await startSparqlEndpoint({ turtle: '<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "Alpha"@en .' });
  });
  afterAll(async () => {
    await ep.close();
  });

  it("opens an endpoint as a remote KG that answers queries", async () => {
    const kg = await openKg({ kind: "endpoint", url: ep.url, profile: { language: "de" } }, { timeoutMs: 5000 });
    expect(kg.info.kind).toBe("remote");
    expect(kg.profile.language).toBe("de");
    expect(await kg.ask("ASK { <http://example.org/a> ?p ?o }")).toBe(true);
    // the profile's language filters labels: the English label is not a German one
    expect(await kg.searchLabels("alpha", { limit: 5 })).toEqual([]);
    const en = await openKg({ kind: "endpoint", url: ep.url });
    expect((await en.searchLabels("alpha", { limit: 5 })).map((h) => h.iri)).toEqual(["http://example.org/a"]);
  });

  it("refuses endpoint URLs with other schemes, and invalid specs", async () => {
    expect((await rejected(openKg({ kind: "endpoint", url: "file:///etc/passwd" }))).code).toBe("bad_request");
    expect((await rejected(openKg({ kind: "endpoint", url: "gopher://x.org/" }))).message).toMatch(/http and https/);
    expect((await rejected(openKg({ kind: "nonsense" }))).code).toBe("bad_request");
    expect((await rejected(openKg({ kind: "files", paths: [] }))).code).toBe("bad_request");
    expect((await rejected(openKg({ kind: "files", paths: ["a.ttl"], graphs: ["not an iri"] }))).code).toBe("bad_request");
    expect((await rejected(openKg({ kind: "files", paths: ["a.ttl", "b.ttl"], graphs: ["http://g/1"] }))).message).toMatch(/one entry per path/);
  });

  it("opens a folder as the RDF files in it (TriG named graphs and Turtle together), and refuses a folder without any", async () => {
    const calls: Parameters<CreateEmbeddedKg>[0][] = [];
    const fake: CreateEmbeddedKg = async (o) => {
      calls.push(o);
      return { info: { id: "x", kind: "embedded", name: "x" }, profile: o.profile } as KnowledgeGraph;
    };
    await openKg({ kind: "files", paths: ["test/fixtures/kg/lexicon", "kg/sample.ttl"], entailment: "rdfs" }, { createEmbeddedKg: fake });
    expect(calls[0].entailment).toBe("rdfs");
    expect(calls[0].sources.map((s) => path.basename(s.path))).toEqual(["camel-case.ttl", "custom-names.ttl", "hierarchy.ttl", "named-graphs.trig", "sample.ttl"]);
    const err = await rejected(openKg({ kind: "files", paths: ["test/helpers"] }, { createEmbeddedKg: fake }));
    expect(err.message).toMatch(/holds no RDF file/);
  });

  it("passes files (resolved against the root, with named graphs) and the profile to the embedded store", async () => {
    const calls: Parameters<CreateEmbeddedKg>[0][] = [];
    const fake: CreateEmbeddedKg = async (o) => {
      calls.push(o);
      return { info: { id: "x", kind: "embedded", name: "x" }, profile: o.profile } as KnowledgeGraph;
    };
    const root = path.resolve("/tmp/kgroot");
    await openKg({ kind: "files", paths: ["data/a.ttl", "/abs/b.nt"], graphs: [null, "http://example.org/g"] }, { createEmbeddedKg: fake, rootDir: root, timeoutMs: 1234 });
    expect(calls[0].name).toBe("a.ttl, b.nt");
    expect(calls[0].sources).toEqual([{ path: path.join(root, "data/a.ttl") }, { path: "/abs/b.nt", graph: "http://example.org/g" }]);
    expect(calls[0].timeoutMs).toBe(1234);
    // embedded graphs use their own label index unless told otherwise
    expect(calls[0].profile.labelSearch).toBe("index");

    await openKg({ kind: "sample", profile: { labelSearch: "contains" } }, { createEmbeddedKg: fake, rootDir: root });
    expect(calls[1].sources).toEqual([{ path: path.join(root, "kg", "sample.ttl") }]);
    expect(calls[1].profile.labelSearch).toBe("contains");
  });

  it("opens the bundled sample for real in the embedded store", async () => {
    const kg = await openKg({ kind: "sample" }, { timeoutMs: 20_000 });
    try {
      expect(kg.info).toMatchObject({ kind: "embedded", name: "Sample KG" });
      expect(kg.profile.labelSearch).toBe("index");
      const n = await kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
      expect(Number(n.results.bindings[0].n.value)).toBeGreaterThan(1000);
      const hits = await kg.searchLabels("Harry Potter", { limit: 3 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits[0].label.toLowerCase()).toContain("harry potter");
    } finally {
      await kg.close();
    }
  });

  it("opens RDF files for real, and reports a missing file", async () => {
    const kg = await openKg(parseKgArg("test/fixtures/kg-remote/books.ttl"));
    try {
      expect(await kg.ask("ASK { <http://example.org/harry> ?p ?o }")).toBe(true);
    } finally {
      await kg.close();
    }
    const e = await rejected(openKg(parseKgArg("test/fixtures/kg-remote/does-not-exist.ttl")));
    expect(e.message).toContain("does-not-exist.ttl");
  });
});
