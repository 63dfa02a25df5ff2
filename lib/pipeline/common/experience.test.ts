import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG, type DerivationEvent, type ExperienceExample } from "@/lib/pipeline/types";
import { sampleKg } from "@/test/fixtures/kg/triad-harness";
import { examplesBlock, experienceKgKey, retrieveExamples } from "./experience";

const kg = sampleKg();
const context = (events: DerivationEvent[] = [], signal?: AbortSignal) =>
  createAgentContext({ kg, llm: createScriptedLlm({}).gateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, signal, emit: (e) => events.push(e) });
const entry = (id: string, question: string): ExperienceExample => ({ id, question, sparql: `ASK { ?s ?p "${id}" }`, source: "import" });

describe("experience pool retrieval", () => {
  it("returns the most similar solved questions first, at most k, leaving out the unrelated ones", async () => {
    const pool = [entry("a", "Which albums did the band record in 1999?"), entry("b", "Where was the drummer born?"), entry("c", "Where was the singer born?")];
    const got = await retrieveExamples({ examples: async () => pool }, context(), "Where was the bassist born?", 2);
    expect(got.map((e) => e.id).sort()).toEqual(["b", "c"]);
    expect(got[0].score).toBeGreaterThanOrEqual(got[1].score);
  });

  it("a pool that cannot be read costs the examples and says so, unless the turn was cancelled", async () => {
    const events: DerivationEvent[] = [];
    const failing = { examples: async () => Promise.reject(new Error("database is locked")) };
    expect(await retrieveExamples(failing, context(events), "Where was the bassist born?", 3, "qir")).toEqual([]);
    expect(events).toContainEqual(expect.objectContaining({ type: "warning", stage: "qir", message: expect.stringContaining("database is locked") }));
    const controller = new AbortController();
    controller.abort();
    const aborting = { examples: async () => Promise.reject(Object.assign(new Error("aborted"), { name: "AbortError" })) };
    await expect(retrieveExamples(aborting, context([], controller.signal), "q", 3)).rejects.toMatchObject({ code: "aborted" });
  });

  it("shows nothing without examples, and files: KG keys with absolute paths", () => {
    expect(examplesBlock([])).toBe("");
    expect(examplesBlock([{ ...entry("a", "Q?"), score: 1 }])).toContain("Example 1. Question: Q?");
    expect(experienceKgKey("files:kg/a.ttl,/x/b.ttl", "/srv")).toBe("files:/srv/kg/a.ttl,/x/b.ttl");
    expect(experienceKgKey("endpoint:https://example.org/sparql")).toBe("endpoint:https://example.org/sparql");
  });
});
