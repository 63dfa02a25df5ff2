// search_entities with misspelt words (test/fixtures/kg/explorer/birdwatch.ttl): when no name holds the words, the
// names' words within a small edit distance are searched, and the output says the match was approximate.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { buildEntityIndex } from "../entity-index";
import { buildKgShape } from "../kg-shape";
import { KnownIris } from "../known-iris";
import { Render } from "../render";
import type { ToolEnv } from "../tool-env";
import { searchEntities } from "./search-entities";
import { searchSchema } from "./search-schema";

let kg: KnowledgeGraph;
let env: ToolEnv;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/explorer/birdwatch.ttl"], profile: { prefixes: { bw: "http://example.org/birdwatch/" } } });
  const ctx = createAgentContext({ kg, llm: {} as LlmGateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, emit: () => {} });
  const shape = await buildKgShape(ctx, "plan");
  let index: ReturnType<typeof buildEntityIndex> | undefined;
  env = { ctx, shape, known: new KnownIris(), seenInResults: new Set(), asked: [], questionConstants: new Set(), declaredPrefixes: new Set(), entityIndex: () => (index ??= buildEntityIndex(ctx, "explore")) };
}, 60_000);
afterAll(async () => kg?.close());

const search = async (query: string, cls?: string) => {
  const out = await searchEntities.run({ query, ...(cls ? { class: cls } : {}) }, env, new Render(env.shape.prefixes));
  return { text: out.text, data: out.data as { approximate?: { typed: string; matched: string; edits: number }[] } };
};

describe("search_entities with a misspelt name", () => {
  it("finds a thing named only by its IRI from a misspelt word, and says the match is approximate", async () => {
    const { text, data } = await search("woodpekcer");
    expect(text.split("\n")[0]).toBe('Entities for "woodpekcer":');
    expect(text).toContain('(no name holds "woodpekcer": approximate match, matched "woodpecker" ≈ "woodpekcer" (1 edit) — check it is the thing meant)');
    expect(text).toMatch(/^\d\. bw:family-Woodpecker .*— a bw:Family$/m);
    expect(data.approximate).toEqual([{ typed: "woodpekcer", matched: "woodpecker", edits: 1 }]);
    // with the class the question asks for
    expect((await search("woodpekcer", "bw:Family")).text).toMatch(/^1\. bw:family-Woodpecker /m);
  });

  it("finds a labelled thing from a misspelt word of its name (two edits in a long word) and a misspelt class name", async () => {
    const bird = await search("common kngfsiher");
    expect(bird.text).toMatch(/^1\. bw:b3 "Common Kingfisher" — a bw:Bird$/m);
    expect(bird.text).toContain('matched "kingfisher" ≈ "kngfsiher" (2 edits)');
    const cls = await search("obsrevatry");
    expect(cls.text).toMatch(/^1\. bw:Observatory /m);
    expect(cls.text).toContain('matched "observatory" ≈ "obsrevatry" (2 edits)');
  });

  it("does not correct a word a name holds, a short word, or a word too far from every name", async () => {
    const exact = await search("barn owl");
    expect(exact.text).toMatch(/^1\. bw:b4 "Barn Owl"/m);
    expect(exact.text).not.toContain("approximate");
    // "jab" is one edit from "Jay", "own" from "Owl": three letters are never corrected
    expect((await search("jab")).text).toMatch(/^No entity matches "jab"/);
    expect((await search("own")).text).not.toMatch(/bw:b4|bw:family-Owl/);
    // "woodcutter" is 4+ edits from "woodpecker"
    expect((await search("woodcutter")).text).not.toContain("approximate");
  });
});

describe("search_schema with a misspelt term", () => {
  it("finds the class or property a misspelt word stands for and says the match is approximate", async () => {
    const render = new Render(env.shape.prefixes);
    const prop = await searchSchema.run({ query: "wingspn", kind: "property" }, env, render);
    expect(prop.text).toMatch(/^1\. property bw:wingspanCm /m);
    expect(prop.text).toContain('(no name holds "wingspn": approximate match, matched "wingspan" ≈ "wingspn" (1 edit) — check it is the term meant)');
    const cls = await searchSchema.run({ query: "obsrevatry", kind: "class" }, env, render);
    expect(cls.text).toMatch(/^1\. class bw:Observatory /m);
    // a term the vocabulary names is not "corrected"
    expect((await searchSchema.run({ query: "family", kind: "class" }, env, render)).text).not.toContain("approximate");
  });
});
