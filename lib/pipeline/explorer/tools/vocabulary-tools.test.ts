// The explorer's tools on a label-less KG (test/fixtures/kg/explorer/orchard.ttl): classes the summary leaves out are
// found by name, an id written shortened or an IRI written whole finds its thing, and the types shown are the most
// specific ones even when every superclass is asserted too.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { buildEntityIndex } from "../entity-index";
import { buildKgShape, DEFAULT_SHAPE_LIMITS } from "../kg-shape";
import { KnownIris } from "../known-iris";
import { Render } from "../render";
import type { ExplorerTool, ToolEnv } from "../tool-env";
import { searchEntities } from "./search-entities";
import { searchSchema } from "./search-schema";

let kg: KnowledgeGraph;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/explorer/orchard.ttl"], profile: { prefixes: { ob: "http://example.org/orchard/" } } });
}, 60_000);
afterAll(async () => kg?.close());

/** The tools' environment with a summary that describes only `classes` classes (the largest). */
async function envWith(classes: number): Promise<ToolEnv> {
  const ctx = createAgentContext({ kg, llm: {} as LlmGateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, emit: () => {} });
  const shape = await buildKgShape(ctx, "plan", { ...DEFAULT_SHAPE_LIMITS, classes });
  let index: ReturnType<typeof buildEntityIndex> | undefined;
  return { ctx, shape, known: new KnownIris(), seenInResults: new Set(), asked: [], questionConstants: new Set(), declaredPrefixes: new Set(), entityIndex: () => (index ??= buildEntityIndex(ctx, "explore")) };
}

async function run<I>(tool: ExplorerTool<I>, env: ToolEnv, input: I) {
  return (await tool.run(input, env, new Render(env.shape.prefixes))).text;
}

describe("search_schema beyond the summary", () => {
  it("finds a class the summary left out by its name (plural, CamelCase local name) and puts a whole-name match first", async () => {
    const env = await envWith(1);
    expect(env.shape.classes.map((c) => c.iri)).not.toContain("http://example.org/orchard/BeeHive");
    const hives = await run(searchSchema, env, { query: "bee hives" });
    expect(hives.split("\n")[1]).toBe('1. class ob:BeeHive "Bee Hive" (not in the summary; 1 instances)');
    // declared by the ontology, never used: found, and said to have no instances
    expect(await run(searchSchema, env, { query: "pollination zones", kind: "class" })).toMatch(/^1\. class ob:PollinationZone "Pollination Zone" \(not in the summary; no instances\)$/m);
  });
});

describe("search_entities on ids and entailed types", () => {
  it("finds a thing by the first part of its IRI's uuid, by an IRI written whole, and by a shortened id literal", async () => {
    const env = await envWith(40);
    expect(await run(searchEntities, env, { query: "77aa9c01" })).toMatch(/^1\. <urn:uuid:77aa9c01-0000-4000-8000-00000000000b> "North Hive"/m);
    expect(await run(searchEntities, env, { query: "urn:uuid:77aa9c01-0000-4000-8000-00000000000b" })).toMatch(/^1\. <urn:uuid:77aa9c01-0000-4000-8000-00000000000b> "North Hive"/m);
    expect(await run(searchEntities, env, { query: "5e6f7a8b" })).toMatch(/^1\. <urn:uuid:77aa9c01-0000-4000-8000-00000000000b> "North Hive" \(matched "5e6f7a8b-0000-4000-8000-00000000000b" via ob:Object\.code\)/m);
    // a word is no id: no prefix scan for it
    expect(await run(searchEntities, env, { query: "North" })).toMatch(/^1\. <urn:uuid:77aa9c01-[^>]+> "North Hive"/m);
  });

  it("keeps the instances of a class's subclasses (the KG's own hierarchy) when a class is passed", async () => {
    const env = await envWith(1);
    expect(env.shape.classes.map((c) => c.iri)).toEqual(["http://example.org/orchard/Thing"]);
    const plants = await run(searchEntities, env, { query: "Old Pippin", class: "ob:Plant" });
    expect(plants).toMatch(/^\d+\. <urn:uuid:a1000000-0000-4000-8000-000000000009> "Old Pippin Sapling" — a ob:Tree$/m);
    expect(plants.split("\n").filter((l) => /^\d+\. /.test(l))).toHaveLength(3);
    expect(plants).not.toContain("ob:Orchard");
  });

  it("shows the most specific types first when every superclass is asserted too", async () => {
    const env = await envWith(40);
    const out = await run(searchEntities, env, { query: "Crooked Bramley" });
    expect(out).toMatch(/^1\. <urn:uuid:a1000000-0000-4000-8000-000000000003> "Crooked Bramley" — a ob:Tree, ob:Plant$/m);
    // same-named things of another type are told apart by their type
    const pippins = await run(searchEntities, env, { query: "Old Pippin" });
    expect(pippins.split("\n").filter((l) => /"Old Pippin" — a ob:Tree, ob:Plant$/.test(l))).toHaveLength(2);
    expect(pippins.split("\n").filter((l) => /"Old Pippin" — a ob:Orchard, ob:Thing$/.test(l))).toHaveLength(1);
    // the two trees cannot be told apart by what is shown: the output says so (the orchard is not counted with them)
    expect(pippins).toContain('(2 of these are named "Old Pippin" and have the same types: the name alone does not tell them apart');
    expect(await run(searchEntities, env, { query: "Crooked Bramley" })).not.toContain("does not tell them apart");
  });
});
