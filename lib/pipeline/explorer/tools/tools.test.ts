// The explorer's tools on real embedded stores: a small KG whose names are not English rdfs:labels, and the music KG.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createEmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG, type DerivationEvent } from "@/lib/pipeline/types";
import { buildEntityIndex } from "../entity-index";
import { buildKgShape } from "../kg-shape";
import { KnownIris } from "../known-iris";
import { Render } from "../render";
import type { ExplorerTool, ToolEnv } from "../tool-env";
import { describeEntity } from "./describe-entity";
import { executeSparql } from "./execute-sparql";
import { searchEntities } from "./search-entities";
import { searchSchema } from "./search-schema";
import { searchValues } from "./search-values";

// Names only in an untagged ex:fullName or a German label, one person known only by its IRI, a percent-encoded IRI.
const TTL = `@prefix ex: <http://ex.org/> . @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:Person rdfs:label "Person"@de .
ex:p1 a ex:Person ; ex:fullName "Ada Lovelace" ; ex:worksAt ex:Analytical_Engine_Works ; ex:born "1815-12-10"^^<http://www.w3.org/2001/XMLSchema#date> .
ex:p2 a ex:Person ; rdfs:label "Grete Hermann"@de ; ex:worksAt <http://ex.org/org/Universit%C3%A4t%20G%C3%B6ttingen> ; ex:shoeSize 41 .
ex:p3 a ex:Person ; ex:worksAt ex:Analytical_Engine_Works .
<http://ex.org/org/Universit%C3%A4t%20G%C3%B6ttingen> ex:city "Göttingen" .
`;

let small: KnowledgeGraph;
let music: KnowledgeGraph;
beforeAll(async () => {
  small = await createEmbeddedKg({ name: "names", profile: { prefixes: { ex: "http://ex.org/" } } });
  await (small as Awaited<ReturnType<typeof createEmbeddedKg>>).loadString(TTL, "turtle");
  music = await openKg({ kind: "files", paths: ["kg/music.ttl"], profile: { prefixes: { t: "http://example.org/tunes/id/", tv: "http://example.org/tunes/vocab#" } } });
}, 60_000);
afterAll(async () => {
  await small?.close();
  await music?.close();
});

async function envFor(kg: KnowledgeGraph): Promise<{ env: ToolEnv; events: DerivationEvent[] }> {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ kg, llm: {} as LlmGateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, emit: (e) => events.push(e) });
  const shape = await buildKgShape(ctx, "plan");
  let index: ReturnType<typeof buildEntityIndex> | undefined;
  const entityIndex = () => (index ??= buildEntityIndex(ctx, "explore", shape.labelLike));
  return { env: { ctx, shape, known: new KnownIris(), seenInResults: new Set(), asked: [], questionConstants: new Set(), declaredPrefixes: new Set(), entityIndex }, events };
}

async function run<I>(tool: ExplorerTool<I>, env: ToolEnv, input: I) {
  const render = new Render(env.shape.prefixes);
  const out = await tool.run(input, env, render);
  return { ...out, shown: render.shown };
}

describe("search_entities", () => {
  it("finds things named only in an untagged name-like literal, a German label, or their IRI", async () => {
    const { env } = await envFor(small);
    expect(env.shape.labelLike).toContain("http://ex.org/fullName");
    expect((await run(searchEntities, env, { query: "Ada Lovelace" })).text).toMatch(/^1\. ex:p1 "Ada Lovelace" — a ex:Person$/m);
    expect((await run(searchEntities, env, { query: "Grete Hermann" })).text).toMatch(/^1\. ex:p2 "Grete Hermann"/m);
    const byIri = await run(searchEntities, env, { query: "analytical engine works" });
    expect(byIri.text).toMatch(/^1\. ex:Analytical_Engine_Works \(no name literal; named by its IRI: "Analytical Engine Works"\)$/m);
    const encoded = await run(searchEntities, env, { query: "Universität Göttingen" });
    expect(encoded.text).toContain("<http://ex.org/org/Universit%C3%A4t%20G%C3%B6ttingen>");
    expect(encoded.shown.has("http://ex.org/org/Universit%C3%A4t%20G%C3%B6ttingen")).toBe(true);
  });

  it("keeps only instances of a class when one is given, and says when nothing matches", async () => {
    const { env } = await envFor(music);
    const all = await run(searchEntities, env, { query: "Aurora" });
    expect(all.text).toMatch(/— a tv:Album$/m);
    const venues = await run(searchEntities, env, { query: "Aurora", class: "tv:Venue" });
    expect(venues.text.split("\n").slice(1)).toEqual([expect.stringMatching(/^1\. t:venue-Aurora-Hall "Aurora Hall" — a tv:Venue$/)]);
    expect((await run(searchEntities, env, { query: "Aurora", class: "tv:Band" })).text).toMatch(/^No entity matches "Aurora" among instances of tv:Band/);
    expect((await run(searchEntities, env, { query: "zzqx nothing" })).text).toMatch(/^No entity matches "zzqx nothing"/);
  });

  it("finds music tracks by their unlabelled tv:trackTitle (a name-like predicate no profile names)", async () => {
    const { env } = await envFor(music);
    expect(env.shape.labelLike).toContain("http://example.org/tunes/vocab#trackTitle");
    const title = (await music.select("SELECT ?t WHERE { ?x <http://example.org/tunes/vocab#trackTitle> ?t } LIMIT 1")).results.bindings[0].t.value;
    expect((await run(searchEntities, env, { query: title })).text).toMatch(new RegExp(`^1\\. t:track-\\S+ "${title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}" — a tv:Track$`, "m"));
  });
});

describe("search_values", () => {
  it("finds literal constants with the predicate holding them; numbers by value", async () => {
    const { env } = await envFor(music);
    expect((await run(searchValues, env, { query: "tokyo" })).text).toMatch(/^1\. "Tokyo" — tv:city of \d+ subjects?/m);
    const { env: e2 } = await envFor(small);
    expect((await run(searchValues, e2, { query: "41" })).text).toMatch(/^1\. "41"\^\^xsd:integer — ex:shoeSize of 1 subject, e.g. ex:p2$/m);
    expect((await run(searchValues, e2, { query: "1815-12" })).text).toMatch(/"1815-12-10"\^\^xsd:date — ex:born/);
  });
});

describe("the schema summary's queries", () => {
  it("ask a class's properties of its listed sample instances, not of a subquery an engine may join after a full scan", async () => {
    const { events } = await envFor(music);
    const shapeQueries = events.flatMap((e) => (e.type === "sparql" && e.purpose.startsWith("shape: properties of") ? [e.query] : []));
    expect(shapeQueries.length).toBeGreaterThan(0);
    for (const q of shapeQueries) {
      expect(q).toMatch(/VALUES \?s \{ </);
      expect(q).not.toMatch(/SELECT[^]*SELECT/);
    }
  });
});

describe("search_schema, describe_entity, execute_sparql", () => {
  it("ranks schema terms by their words and shows how a property is used", async () => {
    const { env } = await envFor(music);
    const out = await run(searchSchema, env, { query: "record label", kind: "property" });
    expect(out.text.split("\n")[1]).toMatch(/^1\. property tv:recordLabel .*from tv:Album/);
  });

  it("describes an entity in both directions with labelled values and counts", async () => {
    const { env } = await envFor(small);
    const out = await run(describeEntity, env, { iri: "ex:Analytical_Engine_Works" });
    expect(out.text).toMatch(/^ex:Analytical_Engine_Works: 0 outgoing triples, 2 incoming triples/);
    expect(out.text).toMatch(/^ {2}← ex:worksAt: (ex:p3 \| ex:p1 "Ada Lovelace"|ex:p1 "Ada Lovelace" \| ex:p3)$/m);
    expect((await run(describeEntity, env, { iri: "ex:nobody" })).text).toMatch(/this IRI is not in the KG/);
  });

  it("shows row count, head and tail of a result, and remembers the values for the final-query check", async () => {
    const { env } = await envFor(music);
    const out = await run(executeSparql, env, { sparql: "SELECT ?t WHERE { ?t a tv:Track } ORDER BY ?t" });
    const lines = out.text.split("\n");
    expect(lines[0]).toMatch(/^\d+ rows, 1 column/);
    expect(lines[1]).toBe("?t");
    expect(lines).toContainEqual(expect.stringMatching(/^… \d+ rows not shown …$/));
    expect(lines.filter((l) => l.startsWith("t:track-"))).toHaveLength(10);
    expect([...env.seenInResults].length).toBeGreaterThan(10);
  });
});

describe("the explorer's tools on a KG whose IRIs are urn:uuid and whose names sit in a custom predicate", () => {
  it("find things by their name or code, show the name, and say which name matched", async () => {
    const kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/lexicon/custom-names.ttl"], profile: { prefixes: { ls: "http://example.org/lightships/" } } });
    try {
      const { env } = await envFor(kg);
      const byName = await run(searchEntities, env, { query: "sable reef light" });
      expect(byName.text).toMatch(/^1\. <urn:uuid:1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f> "Sable Reef Light" — a ls:Lightship$/m);
      const byCode = await run(searchEntities, env, { query: "LS-6002" });
      expect(byCode.text).toMatch(/^1\. <urn:uuid:2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a> "Heron Shoal Lantern" \(matched "LS-6002" via ls:serialCode\)/m);
      // query results name the nameless IRIs
      const rows = await run(executeSparql, env, { sparql: "SELECT ?a WHERE { ?s ls:mooredAt ?a } ORDER BY ?a" });
      expect(rows.text).toContain('"Outer Roads"');
      expect(rows.text).toContain('"Kelp Sound"');
    } finally {
      await kg.close();
    }
  });
});
