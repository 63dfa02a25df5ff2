// Schema summary helpers: generated prefixes, term display, and the per-KG cache (failures are not cached).
import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "@/lib/kg/profile";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createSchemaCache, getKgSchema, schemaPrefixes, showTerm } from "./kg-schema";

describe("schemaPrefixes", () => {
  it("names uncovered namespaces after their last path segment or host, without clashing", () => {
    const p = schemaPrefixes(["http://ex.org/kg/ontology/author", "http://ex.org/kg/resource/A", "https://schema.org/name", "http://other.org/ontology/x"], { rdfs: "http://www.w3.org/2000/01/rdf-schema#", schema: "http://schema.org/" });
    expect(p).toMatchObject({ ont: "http://ex.org/kg/ontology/", res: "http://ex.org/kg/resource/", schema2: "https://schema.org/", ont2: "http://other.org/ontology/" });
  });
  it("shows literals with language or datatype, shortened", () => {
    expect(showTerm({ type: "literal", value: "x".repeat(100), "xml:lang": "en" }, {})).toMatch(/^"x{59}…"@en$/);
    expect(showTerm({ type: "literal", value: "7", datatype: "http://www.w3.org/2001/XMLSchema#integer" }, { xsd: "http://www.w3.org/2001/XMLSchema#" })).toBe('"7"^^xsd:integer');
  });
});

describe("getKgSchema", () => {
  it("builds once per KG object, and a failed build is retried next time", async () => {
    let fail = true;
    let queries = 0;
    const kg = {
      info: { id: "k", kind: "remote", name: "k" },
      profile: DEFAULT_PROFILE,
      async query() {
        queries++;
        if (fail) throw new Error("endpoint down");
        return { kind: "SELECT", head: { vars: ["x", "n"] }, results: { bindings: [] } };
      },
    } as unknown as KnowledgeGraph;
    const ctx = createAgentContext({ kg, llm: createScriptedLlm().gateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, emit: () => {} });
    const cache = createSchemaCache();
    await expect(getKgSchema(cache, ctx, "query-generation")).rejects.toThrow(/endpoint down/);
    expect(cache.has(kg)).toBe(false);
    fail = false;
    const built = await getKgSchema(cache, ctx, "query-generation");
    const after = queries;
    const again = await getKgSchema(cache, ctx, "query-generation");
    expect([built.cached, again.cached]).toEqual([false, true]);
    expect(queries).toBe(after);
  });
});
