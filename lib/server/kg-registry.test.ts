// KG registry: the sample opens once, uploads register only after a complete load, sessions cannot reach each other's KGs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { isAppError } from "@/lib/errors";
import { startSparqlEndpoint, type TestSparqlEndpoint } from "@/test/helpers/sparql-endpoint";
import { createEmbeddedKg, startSpareWorker, type EmbeddedKgOptions, type SpareWorker } from "@/lib/kg/embedded/embedded-kg";
import { createKgRegistry, withDefaultProfile, type KgRegistry } from "./kg-registry";
import { createTempDb, type TempDb } from "./testing/temp-db";

const FIX = path.join(process.cwd(), "test/fixtures/rdf");
const file = (name: string) => ({ name, data: new Uint8Array(fs.readFileSync(path.join(FIX, name))) });
const ALICE = "session-alice";
const BOB = "session-bob";
const CAROL = "session-carol";

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => {
      throw new Error("expected a rejection");
    },
    (e: unknown) => e,
  );
}

let tmp: TempDb;
let registry: KgRegistry;
let endpoint: TestSparqlEndpoint;
const dataDir = () => path.join(tmp.dir, "data");
const uploadDirs = () => (fs.existsSync(path.join(dataDir(), "uploads")) ? fs.readdirSync(path.join(dataDir(), "uploads")) : []);

beforeAll(async () => {
  tmp = await createTempDb();
  // the test endpoint listens on 127.0.0.1, which the SSRF policy refuses unless allowed
  registry = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: dataDir(), env: { KG_ALLOW_PRIVATE_ENDPOINTS: "true" } });
  endpoint = await startSparqlEndpoint({ turtle: '<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#label> "A" .' });
});
afterAll(async () => {
  await registry.close();
  await endpoint.close();
  await tmp.close();
});

describe("the sample KG", () => {
  it("is listed for every session before it is loaded, then loads once at first use", async () => {
    const before = await registry.list(BOB);
    expect(before[0]).toMatchObject({ id: "sample", kind: "sample", status: "not-loaded" });
    const [a, b] = await Promise.all([registry.getKg(ALICE, "sample"), registry.getKg(BOB, "sample")]);
    expect(a).toBe(b);
    expect(a.info.triples).toBeGreaterThan(2000);
    const rows = await a.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }");
    expect(Number(rows.results.bindings[0].n.value)).toBe(a.info.triples);
    expect((await registry.list(BOB))[0]).toMatchObject({ id: "sample", status: "ready", triples: a.info.triples });
  });
});

describe("uploads", () => {
  it("refuses a malformed file with its name and line, and registers nothing", async () => {
    const e = await rejection(registry.addUpload(ALICE, [file("books.ttl"), file("malformed.ttl")], "Broken"));
    expect(isAppError(e, "kg_load")).toBe(true);
    expect((e as Error).message).toContain("malformed.ttl");
    expect((e as Error).message).toMatch(/line 5/);
    expect((await registry.list(ALICE)).map((k) => k.id)).toEqual(["sample"]);
    expect(await tmp.queries.listKgSources({ sessionId: ALICE })).toEqual([]);
    expect(uploadDirs()).toEqual([]);
  });

  it("refuses files that are not RDF by extension, and uploads over the size limit", async () => {
    const e1 = await rejection(registry.addUpload(ALICE, [{ name: "notes.txt", data: new Uint8Array([65]) }]));
    expect(isAppError(e1, "bad_request")).toBe(true);
    expect((e1 as Error).message).toContain("notes.txt");
    const small = createKgRegistry({ queries: tmp.queries, dataDir: dataDir(), env: { KG_UPLOAD_MAX_MB: "0.0001" } });
    const e2 = await rejection(small.addUpload(ALICE, [file("books.ttl")]));
    expect(isAppError(e2, "too_large")).toBe(true);
    expect(uploadDirs()).toEqual([]);
  });

  it("loads an upload with RDFS entailment when asked, says so in the list (also after a restart), and keeps it apart from the plain upload", async () => {
    const hierarchy = { name: "hierarchy.ttl", data: new Uint8Array(fs.readFileSync(path.join(process.cwd(), "test/fixtures/kg/lexicon/hierarchy.ttl"))) };
    const plain = await registry.addUpload(CAROL, [hierarchy], "Orchard");
    const entailed = await registry.addUpload(CAROL, [hierarchy], "Orchard (RDFS)", { entailment: "rdfs" });
    expect(entailed.id).not.toBe(plain.id);
    expect(entailed).toMatchObject({ entailment: "rdfs", triples: (plain.triples ?? 0) + 9 });
    expect(plain.entailment).toBeUndefined();
    const ask = "ASK { <http://example.org/orchard#OldWardenPear> a <http://example.org/orchard#Plant> }";
    expect(await (await registry.getKg(CAROL, entailed.id)).ask(ask)).toBe(true);
    expect(await (await registry.getKg(CAROL, plain.id)).ask(ask)).toBe(false);
    const restarted = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: dataDir(), env: {} });
    try {
      expect((await restarted.list(CAROL)).find((k) => k.id === entailed.id)).toMatchObject({ status: "not-loaded", entailment: "rdfs" });
      expect(await (await restarted.getKg(CAROL, entailed.id)).ask(ask)).toBe(true);
    } finally {
      await restarted.close();
    }
  });

  it("opens a default KG given as a folder of files, with KG_DEFAULT_ENTAILMENT", async () => {
    const r = createKgRegistry({ queries: tmp.queries, rootDir: process.cwd(), dataDir: dataDir(), env: { KG_DEFAULT: "test/fixtures/kg/lexicon", KG_DEFAULT_ENTAILMENT: "rdfs" } });
    try {
      const kg = await r.getKg(CAROL, "sample");
      // the hierarchy file's inverse and the TriG file's named graphs, together
      expect(await kg.ask("ASK { <http://example.org/orchard#EastPlot> <http://example.org/orchard#hosts> ?t . ?h <http://example.org/apiary/keptBy> ?k }")).toBe(true);
      expect((await r.list(CAROL))[0]).toMatchObject({ entailment: "rdfs" });
    } finally {
      await r.close();
    }
  });

  it("loads good files into a new KG only its session can use, which reopens after a restart", async () => {
    const item = await registry.addUpload(ALICE, [file("books.ttl"), file("cities.nt")], "Books and cities");
    expect(item).toMatchObject({ kind: "upload", name: "Books and cities", status: "ready", triples: 11 });
    expect((await registry.list(ALICE)).map((k) => k.id)).toEqual(["sample", item.id]);
    expect((await registry.list(BOB)).map((k) => k.id)).toEqual(["sample"]);

    const kg = await registry.getKg(ALICE, item.id);
    expect(kg.info.id).toBe(item.id);
    expect(await kg.ask("ASK { ?s ?p ?o }")).toBe(true);
    expect(isAppError(await rejection(registry.getKg(BOB, item.id)), "not_found")).toBe(true);
    expect(isAppError(await rejection(registry.access(BOB, item.id)), "not_found")).toBe(true);

    // a new process: the row and the files are all it has
    const restarted = createKgRegistry({ queries: tmp.queries, dataDir: dataDir(), env: {} });
    expect((await restarted.list(ALICE))[1]).toMatchObject({ id: item.id, status: "not-loaded" });
    const reopened = await restarted.getKg(ALICE, item.id);
    expect(reopened.info.triples).toBe(11);
    await restarted.close();
  });

  it("takes files the route streamed to disk: moves them in, and the same content is the same KG", async () => {
    const staged = fs.mkdtempSync(path.join(tmp.dir, "staged-"));
    const content = fs.readFileSync(path.join(FIX, "cities.nt"));
    const streamedPath = path.join(staged, "part-0");
    fs.writeFileSync(streamedPath, content);
    const sha256 = createHash("sha256").update(content).digest("hex");
    const item = await registry.addUpload(CAROL, [{ name: "cities.nt", path: streamedPath, size: content.length, sha256 }], "Streamed");
    expect(item).toMatchObject({ kind: "upload", name: "Streamed", status: "ready" });
    expect(item.triples).toBeGreaterThan(0);
    expect(fs.existsSync(streamedPath)).toBe(false); // moved, not copied
    // the same bytes sent in memory are recognised as the same upload
    expect((await registry.addUpload(CAROL, [file("cities.nt")])).id).toBe(item.id);
    const kg = await registry.getKg(CAROL, item.id);
    expect(await kg.ask("ASK { ?s ?p ?o }")).toBe(true);
  });
});

describe("the spare worker for uploads", () => {
  it("keeps one warmed-up worker, hands it to the next upload, starts the next one after, and closes it", async () => {
    const started: SpareWorker[] = [];
    const given: (SpareWorker | undefined)[] = [];
    const reg = createKgRegistry({
      queries: tmp.queries,
      dataDir: dataDir(),
      startSpareWorker: () => {
        const s = startSpareWorker();
        started.push(s);
        return s;
      },
      createEmbeddedKg: (o?: EmbeddedKgOptions) => {
        given.push(o?.worker);
        return createEmbeddedKg(o);
      },
    });
    expect(started).toHaveLength(1);
    await started[0].ready;
    const item = await reg.addUpload("session-dave", [file("cities.nt")], "Cities on a spare");
    expect(item).toMatchObject({ status: "ready", triples: expect.any(Number) });
    expect(given).toEqual([started[0]]);
    // the upload's KG answers from the spare's worker, and a new spare waits for the next upload
    const kg = await reg.getKg("session-dave", item.id);
    expect(await kg.ask("ASK { ?s ?p ?o }")).toBe(true);
    expect(started).toHaveLength(2);
    await reg.close();
    // closed by the registry: nothing left to take
    expect(started[1].take()).toBeUndefined();
  });
});

describe("endpoints", () => {
  it("probes and registers a reachable endpoint for its session", async () => {
    const item = await registry.addEndpoint(ALICE, { url: endpoint.url, name: "Local" });
    expect(item).toMatchObject({ kind: "endpoint", name: "Local", url: endpoint.url, status: "ready" });
    expect(endpoint.requests.some((r) => r.query?.includes("ASK"))).toBe(true);
    expect(isAppError(await rejection(registry.getKg(BOB, item.id)), "not_found")).toBe(true);
    const kg = await registry.getKg(ALICE, item.id);
    expect((await kg.select("SELECT ?l WHERE { ?s ?p ?l }")).results.bindings[0].l.value).toBe("A");
  });

  it("says clearly when the endpoint does not answer, and registers nothing", async () => {
    endpoint.misbehave({ kind: "hang" });
    const quick = createKgRegistry({ queries: tmp.queries, dataDir: dataDir(), env: { KG_ALLOW_PRIVATE_ENDPOINTS: "true" }, probeTimeoutMs: 300 });
    const e = await rejection(quick.addEndpoint(BOB, { url: endpoint.url }));
    endpoint.behave();
    expect(isAppError(e)).toBe(true);
    expect((e as Error).message).toMatch(/did not answer a test query/);
    expect(await tmp.queries.listKgSources({ sessionId: BOB })).toEqual([]);
  });

  it("refuses non-http URLs", async () => {
    for (const url of ["file:///etc/passwd", "ftp://example.org/sparql", "not a url"]) {
      expect(isAppError(await rejection(registry.addEndpoint(ALICE, { url })), "bad_request")).toBe(true);
    }
  });
});

describe("KG_DEFAULT_PROFILE", () => {
  it("gives KG_DEFAULT a preset or a JSON profile; a bad value is an error naming the variable", async () => {
    const spec = { kind: "endpoint" as const, url: "http://127.0.0.1:8890/sparql" };
    expect(withDefaultProfile(spec, undefined)).toEqual(spec);
    expect(withDefaultProfile(spec, " virtuoso ").profile).toEqual({ labelSearch: "virtuoso" });
    expect(withDefaultProfile(spec, '{"labelSearch":"virtuoso","language":"de"}').profile).toEqual({ labelSearch: "virtuoso", language: "de" });
    for (const bad of ["nosuchpreset", "{not json", '{"labelSearch":"grep"}']) {
      expect(() => withDefaultProfile(spec, bad)).toThrow(/KG_DEFAULT_PROFILE/);
    }
    // the registry opens KG_DEFAULT with it
    const reg = createKgRegistry({ queries: tmp.queries, dataDir: dataDir(), env: { KG_DEFAULT: endpoint.url, KG_DEFAULT_PROFILE: "virtuoso" } });
    try {
      expect((await reg.getKg(ALICE, reg.defaultKgId)).profile.labelSearch).toBe("virtuoso");
    } finally {
      await reg.close();
    }
  });
});
