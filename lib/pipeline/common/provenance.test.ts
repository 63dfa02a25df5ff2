// Provenance of an answer item on the sample and music KGs: the executed query restricted to the item's row, as a
// CONSTRUCT of its supporting triple patterns, returns the KG triples behind that item and nothing else.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { provenanceQueries } from "./provenance";

const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";
const T = "http://example.org/tunes/id/";
const TV = "http://example.org/tunes/vocab#";
let sample: KnowledgeGraph;
let music: KnowledgeGraph;

beforeAll(async () => {
  sample = await openKg({ kind: "sample" });
  music = await openKg({ kind: "files", paths: [path.join(process.cwd(), "kg/music.ttl")] });
});
afterAll(async () => {
  await sample?.close();
  await music?.close();
});

/** The edges all provenance queries return, as "subject predicate object" local names, deduplicated and sorted. */
async function edges(kg: KnowledgeGraph, queries: string[]): Promise<string[]> {
  const all = await Promise.all(queries.map((q) => kg.construct(q)));
  const lines = all.flatMap((r) => r.triples.map((t) => [t.subject.value, t.predicate.value, t.object.value].map((v) => v.replace(/^.*[/#]/, "")).join(" ")));
  return [...new Set(lines)].sort();
}

describe("provenanceQueries", () => {
  it("shows the one edge behind a film, in whichever direction the KG stores it (both sides of a UNION)", async () => {
    const query = `SELECT DISTINCT ?film WHERE { { <${RES}Daniel_Radcliffe> <${ONT}starredIn> ?film } UNION { ?film <${ONT}starring> <${RES}Daniel_Radcliffe> } } LIMIT 1000`;
    const swiss = provenanceQueries(query, [{ type: "uri", value: `${RES}Swiss_Army_Man` }]);
    // one CONSTRUCT per UNION branch: a single template would also instantiate the other direction's edge
    expect(swiss).toHaveLength(2);
    expect(swiss[0]).toMatch(/^CONSTRUCT/);
    expect(await edges(sample, swiss)).toEqual(["Daniel_Radcliffe starredIn Swiss_Army_Man"]);
    const nysm = provenanceQueries(query, [{ type: "uri", value: `${RES}Now_You_See_Me_2` }]);
    expect(await edges(sample, nysm)).toEqual(["Now_You_See_Me_2 starring Daniel_Radcliffe"]);
  });

  it("matches a typed literal exactly, and turns an inverse path around", async () => {
    const query = `SELECT ?d WHERE { <${RES}Daniel_Radcliffe> <${ONT}birthDate> ?d }`;
    const date = { type: "literal" as const, value: "1989-07-23", datatype: "http://www.w3.org/2001/XMLSchema#date" };
    expect(await edges(sample, provenanceQueries(query, [date]))).toEqual(["Daniel_Radcliffe birthDate 1989-07-23"]);
    expect(await edges(sample, provenanceQueries(query, [{ ...date, datatype: undefined }]))).toEqual([]); // a plain string is another value
    const inverse = `SELECT ?film WHERE { <${RES}Daniel_Radcliffe> ^<${ONT}starring> ?film }`;
    expect(await edges(sample, provenanceQueries(inverse, [{ type: "uri", value: `${RES}Now_You_See_Me_2` }]))).toEqual(["Now_You_See_Me_2 starring Daniel_Radcliffe"]);
  });

  it("on the music KG: a two-hop price through the offer node, a table row, and a yes", async () => {
    const price = `PREFIX tv: <${TV}> SELECT ?price WHERE { <${T}album-aurora> tv:offer ?o . ?o tv:price ?price ; tv:format "vinyl" }`;
    const vinyl = provenanceQueries(price, [{ type: "literal", value: "25.00", datatype: "http://www.w3.org/2001/XMLSchema#decimal" }]);
    // (the store writes the decimal in its canonical form)
    expect(await edges(music, vinyl)).toEqual(["album-aurora offer offer-aurora-vinyl", "offer-aurora-vinyl format vinyl", "offer-aurora-vinyl price 25"]);
    // a table row binds every column it has; the FILTER restricts rows but adds no edge
    const table = `PREFIX tv: <${TV}> SELECT ?t ?d WHERE { ?t tv:onAlbum <${T}album-aurora> ; tv:duration ?d FILTER(?d > 250) }`;
    const row = provenanceQueries(table, [{ type: "uri", value: `${T}track-aurora-2` }, { type: "literal", value: "281", datatype: "http://www.w3.org/2001/XMLSchema#integer" }]);
    expect(await edges(music, row)).toEqual(["track-aurora-2 duration 281", "track-aurora-2 onAlbum album-aurora"]);
    const ask = provenanceQueries(`PREFIX tv: <${TV}> ASK { <${T}album-aurora> tv:recordLabel ?l }`, []);
    expect(await edges(music, ask)).toEqual(["album-aurora recordLabel label-Northwind-Records"]);
  });

  it("has nothing to show for an aggregate's value or a query without triple patterns; hostile values stay data", () => {
    const count = `SELECT (COUNT(?f) AS ?n) WHERE { ?f <${ONT}starring> <${RES}Daniel_Radcliffe> }`;
    expect(provenanceQueries(count, [{ type: "literal", value: "14" }])).toEqual([]);
    expect(provenanceQueries("SELECT ?x WHERE { VALUES ?x { 1 } }", [{ type: "literal", value: "1" }])).toEqual([]);
    expect(provenanceQueries(`SELECT ?x WHERE { ?x <${ONT}p> ?y }`, [{ type: "literal", value: '" } } DELETE WHERE { ?s ?p ?o } #' }])[0]).toContain('\\" } } DELETE');
    expect(() => provenanceQueries(`SELECT ?x WHERE { ?x <${ONT}p> ?y }`, [{ type: "uri", value: "http://x/> } DROP ALL" }])).toThrow(/Not a usable IRI/);
  });
});

describe("provenanceQueries with OPTIONAL", () => {
  it("shows an optional edge only where the KG has it (an optional whose variables the rest already binds would be invented otherwise)", async () => {
    // both ends bound by the required part: one template would claim "Daniel_Radcliffe starredIn <every film>"
    const query = `SELECT ?film WHERE { ?film <${ONT}starring> <${RES}Daniel_Radcliffe> OPTIONAL { <${RES}Daniel_Radcliffe> <${ONT}starredIn> ?film } }`;
    const hp2 = await edges(sample, provenanceQueries(query, [{ type: "uri", value: `${RES}Harry_Potter_and_the_Chamber_of_Secrets_film` }]));
    expect(hp2).toEqual(["Harry_Potter_and_the_Chamber_of_Secrets_film starring Daniel_Radcliffe"]);
    const woman = await edges(sample, provenanceQueries(query, [{ type: "uri", value: `${RES}The_Woman_in_Black_film` }]));
    expect(woman).toEqual(["Daniel_Radcliffe starredIn The_Woman_in_Black_film", "The_Woman_in_Black_film starring Daniel_Radcliffe"]);
  });
});
