// CK25 questions end to end on the embedded KG (prod-inst.ttl) with scripted LLM replies, scored against the official gold.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { answerAsGold, ck25KgSpec, ck25Missing, loadCk25Fixture, loadGold } from "./ck25";
import { scriptFrom } from "./fixture-replies";
import { runTurn } from "./run-turn";

const missing = ck25Missing();
if (missing) console.warn(`Skipping the CK25 pipeline test: ${missing}.`);
const questions = missing ? [] : loadCk25Fixture();

describe.skipIf(missing !== undefined)("CK25 on the embedded KG (scripted LLM)", () => {
  let kg: KnowledgeGraph;
  const similarity = createLexicalSimilarity();

  beforeAll(async () => {
    kg = await openKg(ck25KgSpec());
  }, 120_000);
  afterAll(async () => kg?.close());

  it("covers at least 8 questions of several kinds", () => {
    expect(questions.length).toBeGreaterThanOrEqual(8);
    const kinds = new Set(questions.map((q) => q.kind.split(/[ ,(]/)[0]));
    expect([...kinds]).toEqual(expect.arrayContaining(["lookup", "two-hop", "count"]));
  });

  it.each(questions.map((q) => [q.id, q.question, q] as const))("q%i: %s", async (_id, question, q) => {
    const llm = createScriptedLlm(scriptFrom(q.replies));
    const { result } = await runTurn(question, [], DEFAULT_CONFIG, { kg, llm: llm.gateway, similarity });
    expect(result.error).toBeUndefined();
    const isCount = q.kind.startsWith("count");
    expect(answerAsGold(result)).toEqual(loadGold(q.id, isCount));
    // every scripted reply was needed, and nothing more
    expect(llm.remaining()).toEqual({});
  });
});
