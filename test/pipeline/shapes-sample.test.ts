// The query shapes beyond the paper (issue 10) on the sample KG, end to end through chattyKgStrategy.run with scripted
// model replies (test/fixtures/shapes/sample.json), each answer scored against its gold SPARQL run on the KG.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { computeGold } from "@/lib/eval/gold";
import { answerKeys, scoreQuestion } from "@/lib/eval/metrics";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { readJson, roleRepliesSchema, scriptFrom } from "./fixture-replies";
import { runTurn } from "./run-turn";

const questionSchema = z.object({
  id: z.string(),
  question: z.string(),
  replies: roleRepliesSchema,
  roles: z.array(z.string()),
  gold: z.string(),
  expect: z.array(z.string()).optional(),
  none: z.boolean().optional(),
});
const fixture = readJson(path.join(process.cwd(), "test/fixtures/shapes/sample.json"), z.object({ questions: z.array(questionSchema) }));

let kg: KnowledgeGraph;
const similarity = createLexicalSimilarity();
beforeAll(async () => {
  kg = await openKg({ kind: "sample" });
});
afterAll(async () => kg?.close());

describe("query shapes on the sample KG (scripted model)", () => {
  it.each(fixture.questions.map((q) => [q.id, q.question, q] as const))("%s: %s", async (_id, question, q) => {
    const llm = createScriptedLlm(scriptFrom(q.replies));
    const { result } = await runTurn(question, [], DEFAULT_CONFIG, { kg, llm: llm.gateway, similarity });
    expect(result.error).toBeUndefined();
    const gold = await computeGold(kg, q.gold);
    if (q.none) {
      // an aggregate over nothing is "no answer": SPARQL's own AVG over no rows is 0, which would be a made-up number
      expect(answerKeys(gold)).toEqual(["n:0"]);
      expect(result.answer).toEqual({ kind: "none", reason: "The KG has no answer to this question." });
      expect(result.source).toBe("none");
    } else {
      expect(answerKeys(gold).length).toBeGreaterThan(0);
      expect(scoreQuestion(result.answer, gold).f1).toBe(1);
    }
    expect(llm.calls.map((c) => c.role)).toEqual(q.roles);
    expect(llm.remaining()).toEqual({});
    for (const text of q.expect ?? []) expect(result.sparql.join("\n")).toContain(text);
  });
});
