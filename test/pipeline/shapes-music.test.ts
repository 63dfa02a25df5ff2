// The query shapes beyond the paper (issue 10) on the music KG, end to end through chattyKgStrategy.run with scripted
// model replies (test/fixtures/shapes/music.json): each answer scored against the gold of kg/music-questions.jsonl.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { readJsonl } from "@/lib/eval/datasets/jsonl";
import { computeGold } from "@/lib/eval/gold";
import { scoreQuestion } from "@/lib/eval/metrics";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import { kgProfilePartialSchema } from "@/lib/kg/profile";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DialogueTurn } from "@/lib/pipeline/types";
import { readJson, roleRepliesSchema, scriptFrom } from "./fixture-replies";
import { runTurn } from "./run-turn";

const ROOT = process.cwd();
const questionSchema = z.object({ id: z.string(), question: z.string(), standalone: z.string().optional(), replies: roleRepliesSchema, roles: z.array(z.string()), expect: z.array(z.string()).optional() });
const fixture = readJson(path.join(ROOT, "test/fixtures/shapes/music.json"), z.object({ questions: z.array(questionSchema), dialogues: z.array(z.array(questionSchema)) }));
const gold = new Map(readJsonl(path.join(ROOT, "kg/music-questions.jsonl")).map((i) => [i.id, i]));

let kg: KnowledgeGraph;
const similarity = createLexicalSimilarity();

beforeAll(async () => {
  const profile = kgProfilePartialSchema.parse(JSON.parse((await import("node:fs")).readFileSync(path.join(ROOT, "kg/music.profile.json"), "utf8")));
  kg = await openKg({ kind: "files", paths: [path.join(ROOT, "kg/music.ttl")], profile });
}, 60_000);
afterAll(async () => kg?.close());

async function ask(q: z.infer<typeof questionSchema>, dialogue: DialogueTurn[] = []) {
  const llm = createScriptedLlm(scriptFrom(q.replies));
  const run = await runTurn(q.question, dialogue, DEFAULT_CONFIG, { kg, llm: llm.gateway, similarity });
  return { ...run, llm, roles: llm.calls.map((c) => c.role) };
}

describe("query shapes on the music KG (scripted model)", () => {
  it("covers every shape of the issue", () => {
    const shapes = new Set(fixture.questions.flatMap((q) => gold.get(q.id)?.features ?? []));
    expect([...shapes]).toEqual(expect.arrayContaining(["literal", "class", "order", "aggregate", "group", "filter", "between", "negation", "ask", "count", "table"]));
  });

  it.each(fixture.questions.map((q) => [q.id, q.question, q] as const))("%s: %s", async (id, _question, q) => {
    const item = gold.get(id);
    if (!item?.goldSparql) throw new Error(`no gold for ${id}`);
    const { result, llm, roles } = await ask(q);
    expect(result.error).toBeUndefined();
    expect(scoreQuestion(result.answer, await computeGold(kg, item.goldSparql)).f1).toBe(1);
    // the LLM calls a competent model makes, every scripted reply used (none more: ≤ 3 per question)
    expect(roles).toEqual(q.roles);
    expect(llm.remaining()).toEqual({});
    for (const text of q.expect ?? []) expect(result.sparql.join("\n")).toContain(text);
  });
});

describe("dialogues on the music KG: 'the first' and 'what else' / 'other'", () => {
  it.each(fixture.dialogues.map((d) => [d.map((t) => t.id).join(" → "), d] as const))("%s", async (_ids, turns) => {
    const dialogue: DialogueTurn[] = [];
    for (const t of turns) {
      const item = gold.get(t.id);
      if (!item?.goldSparql) throw new Error(`no gold for ${t.id}`);
      const { result, roles } = await ask(t, dialogue);
      expect(result.error, t.id).toBeUndefined();
      expect(result.standaloneQuestion, t.id).toBe(t.standalone ?? t.question);
      expect(scoreQuestion(result.answer, await computeGold(kg, item.goldSparql)).f1, t.id).toBe(1);
      expect(roles, t.id).toEqual(t.roles);
      dialogue.push({ question: t.question, answer: result.answer });
    }
  });

  it("links the entity to leave out from the earlier answer when several things share its name (no vertex call)", async () => {
    const [d0, d1, d2] = fixture.dialogues[0];
    const dialogue: DialogueTurn[] = [];
    for (const t of [d0, d1]) dialogue.push({ question: t.question, answer: (await ask(t, dialogue)).result.answer });
    const { events, roles } = await ask(d2, dialogue);
    expect(roles).toEqual(["chat", "predicates"]);
    const linking = events.find((e) => e.type === "stage-end" && e.stage === "entity-linking");
    expect(linking?.type === "stage-end" && linking.summary).toContain("leaving out Cedar Lines (from the dialogue's previous answer)");
    const excluded = events.flatMap((e) => (e.type === "sparql" && e.purpose.startsWith("candidate") ? [e.query] : []));
    expect(excluded.length).toBeGreaterThan(0);
    expect(excluded.every((q) => q.includes("NOT IN(<http://example.org/tunes/id/album-cedar-lines>)"))).toBe(true);
  });
});
