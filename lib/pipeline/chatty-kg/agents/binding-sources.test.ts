// Binding sources: the sampled bindings of a variable, with every followed predicate bound in its triple (no VALUES ?p).
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFixtureKg } from "@/test/fixtures/kg/harness";
import { selectQuery, stringify } from "@/lib/pipeline/common/sparql-ast";
import type { RankedPredicate } from "../state";
import { fromEdge, fromLiteral, fromVariable, fromVertex, sampleOf, type BindingSource } from "./binding-sources";

const SAMPLE = createFixtureKg(path.join(process.cwd(), "kg/sample.ttl"));
const MUSIC = createFixtureKg(path.join(process.cwd(), "kg/music.ttl"));
const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";
const T = "http://example.org/tunes/id/";
const TV = "http://example.org/tunes/vocab#";
const MIRA = `${T}artist/Mira%20Solberg`;

const ranked = (iri: string, direction: "out" | "in", score = 1): RankedPredicate => ({ iri, label: iri, score, direction, vertex: "" });

async function sampled(kg: typeof SAMPLE, source: BindingSource): Promise<{ values: string[]; query: string }> {
  const query = stringify(selectQuery(["x"], [sampleOf(source, "x")]));
  const r = await kg.select(query);
  return { values: r.results.bindings.map((b) => b.x.value).sort(), query };
}

describe("binding sources", () => {
  it("puts each followed predicate in its own triple (engines use the predicate index; VALUES ?p made Virtuoso scan)", async () => {
    const { query } = await sampled(SAMPLE, fromVertex(`${RES}Daniel_Radcliffe`, [ranked(`${ONT}starring`, "in"), ranked(`${ONT}starredIn`, "out")]));
    expect(query).toContain(`<${ONT}starring> <${RES}Daniel_Radcliffe>`);
    expect(query).toContain(`<${RES}Daniel_Radcliffe> <${ONT}starredIn>`);
    expect(query).not.toMatch(/VALUES \?h\d+ \{\s*<http/);
  });

  it("sample KG: the films Daniel Radcliffe stars in, along either direction of the edge", async () => {
    const films = (await sampled(SAMPLE, fromVertex(`${RES}Daniel_Radcliffe`, [ranked(`${ONT}starring`, "in")]))).values;
    expect(films.length).toBeGreaterThanOrEqual(8);
    expect(films).toContain(`${RES}Harry_Potter_and_the_Philosophers_Stone_film`);
    const both = (await sampled(SAMPLE, fromVertex(`${RES}Daniel_Radcliffe`, [ranked(`${ONT}starring`, "in"), ranked(`${ONT}starredIn`, "out")]))).values;
    expect(both).toEqual(expect.arrayContaining(films));
  });

  it("music KG: a vertex, a literal value, an edge and a two-hop chain", async () => {
    const albums = (await sampled(MUSIC, fromVertex(MIRA, [ranked(`${TV}performer`, "in")]))).values;
    expect(albums).toEqual([`${T}album-aurora`, `${T}album-fjord-letters`, `${T}album-paper-boats`]);
    const norwegians = (await sampled(MUSIC, fromLiteral([{ type: "literal", value: "Norway" }], [ranked(`${TV}originCountry`, "in")]))).values;
    expect(norwegians).toContain(MIRA);
    const performers = (await sampled(MUSIC, fromEdge([ranked(`${TV}performer`, "in")]))).values;
    expect(performers).toContain(MIRA);
    // albums of Mira Solberg → their record labels
    const labels = (await sampled(MUSIC, fromVariable(fromVertex(MIRA, [ranked(`${TV}performer`, "in")]), [ranked(`${TV}recordLabel`, "out")]))).values;
    expect(labels).toEqual([`${T}label-Northwind-Records`]);
  });
});
