// The translation step every KG strategy shares, and the question's language reaching the label search.
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { KnowledgeGraph, LabelSearchOptions } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createAgentContext } from "./agent-context";
import { askedTheKg, translateQuestion, translationStage } from "./translation";

function context(script: Parameters<typeof createScriptedLlm>[0] = {}, kg?: Partial<KnowledgeGraph>) {
  const llm = createScriptedLlm(script);
  const ctx = createAgentContext({ kg: kg as KnowledgeGraph, llm: llm.gateway, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, emit: () => {} });
  return { ctx, llm };
}

describe("the translation step", () => {
  it("keeps an English question without a call, and translates another language in one call", async () => {
    const en = context();
    expect(await translateQuestion("Which ships are in service?", en.ctx)).toEqual({ ok: true, language: "en", englishQuestion: "Which ships are in service?" });
    expect(en.llm.calls).toHaveLength(0);
    const de = context({ translator: [{ json: { language: "de", english: "Which ships are in service?" } }] });
    expect(await translateQuestion("Welche Schiffe sind in Betrieb?", de.ctx)).toEqual({ ok: true, language: "de", englishQuestion: "Which ships are in service?" });
    expect(de.llm.calls.map((c) => c.role)).toEqual(["translator"]);
  });

  it("refuses a 'translation' that is still German, and says so in words when it gives up", async () => {
    const still = { json: { language: "de", english: "Welche Schiffe hat der Hafen?" } };
    const { ctx } = context({ translator: [still, still, still, still] });
    const out = await translationStage({ question: "Welche Schiffe hat der Hafen?" }, ctx);
    expect(out).toMatchObject({ failure: { stage: "translate", message: expect.stringMatching(/^Could not translate the question: "english" is not in English/) } });
  });

  it("says in the derivation which language the KG question was translated from", () => {
    expect(askedTheKg({ question: "Welche Schiffe?", standaloneQuestion: "Which ships?", language: "de" })).toBe('Asked the KG: "Which ships?" (translated from de)');
    expect(askedTheKg({ question: "Which ships?", standaloneQuestion: "Which ships?", language: "en" })).toBe('Asked the KG: "Which ships?"');
  });

  it("passes the question's language to every label search of the turn", async () => {
    const seen: LabelSearchOptions[] = [];
    const { ctx } = context({}, { searchLabels: async (_t: string, o: LabelSearchOptions) => (seen.push(o), []) });
    await ctx.searchLabels("entity-linking", "Pier Drei", { limit: 5 });
    ctx.questionLanguage = "de";
    await ctx.searchLabels("entity-linking", "Pier Drei", { limit: 5 });
    expect(seen.map((o) => o.questionLanguage)).toEqual([undefined, "de"]);
    // the fallback translation step sets it too
    const fallback = context({ translator: [{ json: { language: "fr", english: "Which ships?" } }] });
    await translationStage({ question: "Quels navires ?" }, fallback.ctx);
    expect(fallback.ctx.questionLanguage).toBe("fr");
  });
});
