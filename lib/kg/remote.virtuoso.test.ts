// The remote KG and the "virtuoso" label-search adapter against a real Virtuoso 7 (sample + music KGs, a generated KG):
// typed-literal bindings, bif:contains search vs. the embedded index, hostile text, errors, timeouts, aborts, row caps.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/errors";
import { writeTriples } from "@/scripts/gen-triples";
import { runConsoleQuery } from "@/lib/server/sparql-console";
import { virtuosoSkip, virtuosoSuite } from "@/test/helpers/virtuoso";
import { openKg } from "./open-kg";
import { resolveProfile, type KgProfilePartial } from "./profile";
import { createRemoteKg } from "./remote";
import { startVirtuoso, type VirtuosoServer } from "./testing/virtuoso";
import type { KnowledgeGraph } from "./types";

const RES = "http://example.org/chatty-kg/resource/";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const MUSIC_PROFILE = JSON.parse(readFileSync("kg/music.profile.json", "utf8")) as KgProfilePartial;
const HOSTILE = ['Say "hi" } ; DROP ALL', "} ; DROP ALL #", "\"'\\", "nul\u0000", "Rocket 🚀", "pott*", "harry AND NOT potter", "NEAR ( )", "the of", "<http://x>"];

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

describe.skipIf(virtuosoSkip)(virtuosoSuite("remote KG and label search against Virtuoso"), () => {
  let v: VirtuosoServer;
  let tmp: string;
  let sample: KnowledgeGraph;
  let music: KnowledgeGraph;
  let sampleEmbedded: KnowledgeGraph;
  let musicEmbedded: KnowledgeGraph;

  beforeAll(async () => {
    tmp = mkdtempSync(path.join(os.tmpdir(), "chatty-virt-remote-"));
    // 30,000 generated triples: more rows than Virtuoso's default ResultSetMaxRows (10,000)
    await writeTriples(path.join(tmp, "gen.nt"), 30_000);
    v = await startVirtuoso();
    await v.load([
      { path: "kg/sample.ttl", graph: "urn:test:sample" },
      { path: "kg/music.ttl", graph: "urn:test:music" },
      { path: path.join(tmp, "gen.nt"), graph: "urn:test:gen" },
    ]);
    await v.buildTextIndex();
    sample = createRemoteKg({ url: v.endpoint("urn:test:sample"), profile: { labelSearch: "virtuoso" } });
    music = createRemoteKg({ url: v.endpoint("urn:test:music"), profile: { ...MUSIC_PROFILE, labelSearch: "virtuoso" } });
    sampleEmbedded = await openKg({ kind: "sample" });
    musicEmbedded = await openKg({ kind: "files", paths: ["kg/music.ttl"], profile: MUSIC_PROFILE });
  });
  afterAll(async () => {
    await Promise.all([sampleEmbedded?.close(), musicEmbedded?.close()]);
    await v?.stop();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("reads Virtuoso's typed-literal bindings as plain literals with their datatype", async () => {
    const r = await sample.select(`SELECT ?d (COUNT(*) AS ?n) WHERE { <${RES}Daniel_Radcliffe> <http://example.org/chatty-kg/ontology/birthDate> ?d } GROUP BY ?d`);
    expect(r.results.bindings).toEqual([
      { d: { type: "literal", value: "1989-07-23", datatype: `${XSD}date` }, n: { type: "literal", value: "1", datatype: `${XSD}integer` } },
    ]);
    const tagged = await music.select(`SELECT ?l WHERE { <http://example.org/tunes/id/venue-Aurora-Hall> <http://www.w3.org/2000/01/rdf-schema#label> ?l } ORDER BY ?l`);
    expect(tagged.results.bindings.map((b) => b.l)).toEqual([
      { type: "literal", value: "Aurora Hall", "xml:lang": "en" },
      { type: "literal", value: "Aurora-Halle", "xml:lang": "de" },
    ]);
  });

  it("answers SELECT, ASK and CONSTRUCT exactly as the embedded store does", async () => {
    const select = `SELECT ?film ?date WHERE { ?film <http://example.org/chatty-kg/ontology/starring> <${RES}Daniel_Radcliffe> . OPTIONAL { ?film <http://example.org/chatty-kg/ontology/releaseDate> ?date } } ORDER BY ?film`;
    expect((await sample.select(select)).results.bindings).toEqual((await sampleEmbedded.select(select)).results.bindings);
    expect(await sample.ask(`ASK { <${RES}Harry_Potter> ?p ?o }`)).toBe(true);
    expect(await sample.ask(`ASK { <${RES}Hogsmeade_mayor> ?p ?o }`)).toBe(false);
    const construct = `CONSTRUCT { <${RES}Daniel_Radcliffe> ?p ?o } WHERE { <${RES}Daniel_Radcliffe> ?p ?o }`;
    const key = (t: { subject: { value: string }; predicate: { value: string }; object: { value: string } }) => `${t.predicate.value} ${t.object.value}`;
    expect((await sample.construct(construct)).triples.map(key).sort()).toEqual((await sampleEmbedded.construct(construct)).triples.map(key).sort());
  });

  it("the virtuoso adapter finds every entity with an exact label, like the embedded index (sample KG)", async () => {
    for (const text of ["Harry Potter", "Daniel Radcliffe", "J. K. Rowling", "Hogwarts"]) {
      const exactIris = async (kg: KnowledgeGraph) =>
        (await kg.searchLabels(text, { limit: 50 })).filter((h) => h.label.toLowerCase() === text.toLowerCase()).map((h) => h.iri).sort();
      const viaVirtuoso = await exactIris(sample);
      expect(viaVirtuoso.length, text).toBeGreaterThan(0);
      expect(viaVirtuoso, text).toEqual(await exactIris(sampleEmbedded));
      // exact matches rank first
      const hits = await sample.searchLabels(text, { limit: 10 });
      expect(hits[0].label.toLowerCase()).toBe(text.toLowerCase());
    }
    const potter = await sample.searchLabels("Harry Potter", { limit: 10 });
    expect(potter.map((h) => h.iri)).toEqual(expect.arrayContaining([`${RES}Harry_Potter`, `${RES}Harry_Potter_character`, `${RES}Harry_Potter_film_series`]));
  });

  it("the virtuoso adapter searches the music KG's own label predicates, non-ASCII and same-named labels", async () => {
    const aurora = await music.searchLabels("Aurora", { limit: 20 });
    const iris = aurora.map((h) => h.iri);
    expect(iris).toEqual(
      expect.arrayContaining([
        "http://example.org/tunes/id/album-aurora",
        "http://example.org/tunes/id/track-aurora-2",
        "http://example.org/tunes/id/track-lantern-festival-1",
        "http://example.org/tunes/id/track-static-bloom-3",
        "http://example.org/tunes/id/venue-Aurora-Hall",
      ]),
    );
    // the three things named exactly "Aurora" come before "Aurora Borealis" and "Aurora Hall"
    expect(aurora.slice(0, 3).every((h) => h.label === "Aurora")).toBe(true);
    const tomas = await music.searchLabels("Tomás Ferreira", { limit: 5 });
    expect(tomas[0]).toMatchObject({ iri: "http://example.org/tunes/id/artist/Tom%C3%A1s%20Ferreira", label: "Tomás Ferreira" });
    const embedded = await musicEmbedded.searchLabels("Tomás Ferreira", { limit: 5 });
    expect(tomas[0].iri).toBe(embedded[0].iri);
  });

  it("a mention with a word no label has (a title: 'Mr Radcliffe', 'Ms Solberg') still finds the person, like the index", async () => {
    const radcliffe = (await sample.searchLabels("Mr Radcliffe", { limit: 10 })).map((h) => h.iri);
    expect(radcliffe).toEqual(expect.arrayContaining([`${RES}Daniel_Radcliffe`]));
    expect((await sampleEmbedded.searchLabels("Mr Radcliffe", { limit: 10 })).map((h) => h.iri)).toEqual(expect.arrayContaining([`${RES}Daniel_Radcliffe`]));
    const solberg = await music.searchLabels("Ms Solberg", { limit: 5 });
    expect(solberg[0]).toMatchObject({ iri: "http://example.org/tunes/id/artist/Mira%20Solberg", label: "Mira Solberg" });
  });

  it("hostile or operator-like text never breaks the query: hits or an empty list", async () => {
    for (const text of HOSTILE) {
      const hits = await sample.searchLabels(text, { limit: 5 });
      expect(Array.isArray(hits), text).toBe(true);
    }
    // only noise words: the adapter falls back to CONTAINS, which still finds the label
    const the = await music.searchLabels("The", { limit: 50 });
    expect(the.some((h) => /^The /.test(h.label))).toBe(true);
  });

  it("a failing query is a kg_http error with Virtuoso's message (CK25 q25's gold fails like this)", async () => {
    const e = await failure(sample.select("SELECT ((1/0) AS ?x) WHERE {}"));
    expect(e.code).toBe("kg_http");
    expect(e.message).toMatch(/HTTP 500.*Division by 0/);
    // integer division: Virtuoso gives 0 where SPARQL 1.1 (and the embedded store) gives the decimal 0.5
    const half = "SELECT ((1/2) AS ?x) WHERE {}";
    expect((await sample.select(half)).results.bindings[0].x.value).toBe("0");
    expect(Number((await sampleEmbedded.select(half)).results.bindings[0].x.value)).toBe(0.5);
  });

  it("a wrong endpoint path is a clear error, not a parse crash", async () => {
    const wrong = createRemoteKg({ url: v.sparqlUrl.replace(/\/sparql$/, "/nosuch") });
    const e = await failure(wrong.ask("ASK { ?s ?p ?o }"));
    expect(["kg_http", "kg_bad_response"]).toContain(e.code);
    expect(e.message).toMatch(/127\.0\.0\.1/);
  });

  it("a query past its timeout fails with kg_timeout and the endpoint keeps answering", async () => {
    const gen = createRemoteKg({ url: v.endpoint("urn:test:gen") });
    const t0 = performance.now();
    const e = await failure(gen.select("SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d }", { timeoutMs: 300 }));
    expect(e.code).toBe("kg_timeout");
    expect(e.message).toMatch(/did not answer within 300 ms/);
    expect(performance.now() - t0).toBeLessThan(5_000);
    expect(await sample.ask(`ASK { <${RES}Harry_Potter> ?p ?o }`, { timeoutMs: 10_000 })).toBe(true);
  });

  it("an aborted query ends at once with `aborted`", async () => {
    const gen = createRemoteKg({ url: v.endpoint("urn:test:gen") });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const e = await failure(gen.select("SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d }", { signal: controller.signal }));
    expect(e.code).toBe("aborted");
  });

  it("a reply over maxResponseBytes is cut off with a clear error", async () => {
    const capped = createRemoteKg({ url: v.endpoint("urn:test:gen"), maxResponseBytes: 20_000 });
    const e = await failure(capped.select("SELECT * WHERE { ?s ?p ?o } LIMIT 5000"));
    expect(e.code).toBe("kg_bad_response");
    expect(e.message).toMatch(/larger than 20 KB/);
  });

  it("Virtuoso's own row cap (10,000) is reported: the SPARQL panel says the result is truncated", async () => {
    const gen = createRemoteKg({ url: v.endpoint("urn:test:gen") });
    const all = await gen.select("SELECT * WHERE { ?s ?p ?o }");
    expect(all.results.bindings).toHaveLength(10_000);
    expect(all.serverRowCap).toBe(10_000);
    const few = await gen.select("SELECT * WHERE { ?s ?p ?o } LIMIT 10");
    expect(few.serverRowCap).toBeUndefined();
    const panel = await runConsoleQuery(gen, "SELECT ?s WHERE { ?s ?p ?o }");
    expect(panel.truncated).toBe(true);
    expect(panel.result.kind === "SELECT" && panel.result.results.bindings.length).toBe(10_000);
    const small = await runConsoleQuery(gen, "SELECT ?s WHERE { ?s ?p ?o } LIMIT 3");
    expect(small.truncated).toBe(false);
  });

  it("a sorted query above Virtuoso's sorted-TOP cap (SR353) runs with its LIMIT lowered to the cap, marked as cut", async () => {
    const gen = createRemoteKg({ url: v.endpoint("urn:test:gen") });
    const sorted = await gen.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o LIMIT 1000000");
    expect(sorted.results.bindings).toHaveLength(10_000);
    expect(sorted.serverRowCap).toBe(10_000);
    // the first rows are the sorted order's first rows, as a query within the cap gives them
    const head = await gen.select("SELECT ?s ?p ?o WHERE { ?s ?p ?o } ORDER BY ?s ?p ?o LIMIT 5");
    expect(sorted.results.bindings.slice(0, 5)).toEqual(head.results.bindings);
    expect(head.serverRowCap).toBeUndefined();
  });

  it("the profile of a Virtuoso endpoint can be named: the 'virtuoso' preset", () => {
    expect(resolveProfile({ labelSearch: "virtuoso" }).labelSearch).toBe("virtuoso");
    expect(sample.profile.labelSearch).toBe("virtuoso");
  });
});
