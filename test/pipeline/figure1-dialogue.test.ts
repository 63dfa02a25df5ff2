// The paper's Figure-1 dialogue end to end on the sample KG through chattyKgStrategy.run, with scripted LLM replies.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { createScriptedLlm, type ScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, pipelineConfigSchema, type DialogueTurn, type PipelineConfig } from "@/lib/pipeline/types";
import { readJson, roleRepliesSchema, scriptFrom } from "./fixture-replies";
import { answerValues, runTurn } from "./run-turn";

const RES = "http://example.org/chatty-kg/resource/";
const FIXTURE = path.join(process.cwd(), "test/fixtures/dialogues/figure1.json");

const turnSchema = z.object({ question: z.string(), standalone: z.string().optional(), replies: roleRepliesSchema });
const fixture = readJson(
  FIXTURE,
  z.object({ turns: z.array(turnSchema).length(5), notInKg: turnSchema, german: turnSchema, conversation: turnSchema }),
);

// Gold answers from kg/README.md ("Figure 1 dialogue"); turn 2's gold is the release date of the first film.
const T5_GOLD = [
  "Harry_Potter_and_the_Chamber_of_Secrets_film", "Harry_Potter_and_the_Prisoner_of_Azkaban_film", "Harry_Potter_and_the_Goblet_of_Fire_film",
  "Harry_Potter_and_the_Order_of_the_Phoenix_film", "Harry_Potter_and_the_Half_Blood_Prince_film", "Harry_Potter_and_the_Deathly_Hallows_Part_1",
  "Harry_Potter_and_the_Deathly_Hallows_Part_2", "December_Boys", "The_Woman_in_Black_film", "Kill_Your_Darlings", "Horns_film", "What_If_film",
  "Victor_Frankenstein_film", "Swiss_Army_Man", "Now_You_See_Me_2", "Imperium_film", "Jungle_film", "Guns_Akimbo", "Escape_from_Pretoria",
  "The_Lost_City_film", "Weird_The_Al_Yankovic_Story",
].map((x) => `${RES}${x}`);

let kg: KnowledgeGraph;
const similarity = createLexicalSimilarity();

beforeAll(async () => {
  kg = await openKg({ kind: "sample" });
});
afterAll(async () => kg?.close());

function config(overrides: Partial<PipelineConfig> = {}): PipelineConfig {
  return pipelineConfigSchema.parse({ ...DEFAULT_CONFIG, ...overrides });
}

async function ask(turn: z.infer<typeof turnSchema>, dialogue: DialogueTurn[], cfg: PipelineConfig) {
  const llm: ScriptedLlm = createScriptedLlm(scriptFrom(turn.replies));
  const run = await runTurn(turn.question, dialogue, cfg, { kg, llm: llm.gateway, similarity });
  const roles = llm.calls.map((c) => c.role);
  return { ...run, llm, roles };
}

/** Plays the five turns, carrying each answer into the next turn's dialogue, and checks every answer against the gold. */
async function playFigure1(cfg: PipelineConfig) {
  const dialogue: DialogueTurn[] = [];
  const turns = [];
  for (const turn of fixture.turns) {
    const t = await ask(turn, dialogue, cfg);
    expect(t.result.error, `turn ${dialogue.length + 1}`).toBeUndefined();
    expect(t.result.standaloneQuestion).toBe(turn.standalone);
    turns.push(t);
    dialogue.push({ question: turn.question, answer: t.result.answer });
  }
  const [t1, t2, t3, t4, t5] = turns.map((t) => t.result);

  // t1: the book series' author (not the character's creator, not the film series' producer)
  expect(answerValues(t1)).toEqual([`${RES}J_K_Rowling`]);
  // t2: gold 2001-11-16. The pipeline has no ORDER BY/LIMIT query shape for "first", so it returns the release
  // dates of all films of the series; the gold date must be among them and be the earliest.
  const dates = answerValues(t2);
  expect(dates).toContain("2001-11-16");
  expect(dates[0]).toBe("2001-11-16");
  expect(dates.every((d) => /^\d{4}(-\d\d-\d\d)?$/.test(d))).toBe(true);
  // t3: the actor, not the engineer of the same name
  expect(answerValues(t3)).toEqual([`${RES}Daniel_Radcliffe`]);
  // t4: Daniel Radcliffe the actor's birth date (the engineer was born in 1834)
  expect(answerValues(t4)).toEqual(["1989-07-23"]);
  // t5: all 21 gold films are included. The one extra film is Harry Potter and the Philosopher's Stone: "else" (not
  // the film already discussed) has no query shape in Chatty-KG, so the pipeline returns all 22 of his films.
  const films = answerValues(t5);
  expect(films).toEqual(expect.arrayContaining(T5_GOLD));
  expect(films.filter((f) => !T5_GOLD.includes(f))).toEqual([`${RES}Harry_Potter_and_the_Philosophers_Stone_film`]);
  return turns;
}

describe("Figure 1 dialogue on the sample KG", () => {
  it("batched context: the Chat agent's tool call carries the rewrite; every answer matches the gold; one LLM call per stage", async () => {
    const turns = await playFigure1(config());
    for (const t of turns) {
      expect(t.roles).not.toContain("classifier");
      expect(t.roles).not.toContain("rephraser");
      expect(t.roles[0]).toBe("chat");
    }
    // the follow-ups were resolved from the previous ANSWERS: "he" (t4) is the answer of t3
    const chatPrompt = turns[3].llm.calls[0].messages.map((m) => m.text).join("\n");
    expect(chatPrompt).toMatch(/A3: Daniel Radcliffe <http:\/\/example\.org\/chatty-kg\/resource\/Daniel_Radcliffe>/);
    const calls = turns.map((t) => t.result.stats.llmCalls);
    expect(calls).toEqual(turns.map((t) => t.llm.calls.length));
    const average = calls.reduce((a, b) => a + b, 0) / calls.length;
    console.log(`Figure 1, batched: LLM calls per turn ${calls.join(", ")} (average ${average.toFixed(2)})`);
    // Every turn: chat (with the rewrite) + QIR + vertex choice + predicate choice, no retries. The vertex call cannot
    // be skipped here because every Figure-1 mention is ambiguous on purpose (four "Harry Potter", two "Daniel
    // Radcliffe"), and each relation has several candidate predicates. The issue's target of ≤ 3 on average is NOT
    // met by this design (4.0); see the report.
    for (const t of turns) expect(t.roles).toEqual(["chat", "qir", "vertex", "predicates"]);
    expect(average).toBeLessThanOrEqual(4);
  });

  it("separate Classifier + Rephraser (batchContext off): turn 1 makes no classifier/rephraser call; the rephraser sees previous answers", async () => {
    const turns = await playFigure1(config({ batchContext: false }));
    expect(turns[0].roles).not.toContain("classifier");
    expect(turns[0].roles).not.toContain("rephraser");
    for (const t of turns.slice(1)) expect(t.roles).toEqual(expect.arrayContaining(["chat", "classifier", "rephraser"]));
    // the rewrite of "When was he born?" needs t3's answer, which must be in the Rephraser's prompt by its label
    const rephraserPrompt = turns[3].llm.calls.find((c) => c.role === "rephraser")?.messages.map((m) => m.text).join("\n") ?? "";
    expect(rephraserPrompt).toContain("When was he born?");
    expect(rephraserPrompt).toContain("Daniel Radcliffe");
    expect(rephraserPrompt).toMatch(/A3: Daniel Radcliffe/);
    const calls = turns.map((t) => t.result.stats.llmCalls);
    console.log(`Figure 1, separate agents: LLM calls per turn ${calls.join(", ")}`);
  });
});

describe("other turns on the sample KG", () => {
  it("a question the KG cannot answer gives answer kind 'none', never a guess", async () => {
    const t = await ask(fixture.notInKg, [], config());
    expect(t.result.answer.kind).toBe("none");
    // Today this ends as a failed turn at query selection (the validator rejects an empty choice θ times), not as a
    // clean "the KG does not say": no guess either way, but it costs 3 predicate calls (5 in all).
    expect(["none", "failed"]).toContain(t.result.source);
    expect(t.result.sparql).toEqual([]);
    // no query was run for the answer: the model refused every predicate, so nothing was executed
    expect(t.events.some((e) => e.type === "sparql" && e.stage === "execution")).toBe(false);
  });

  it.each([
    ["batched: the Chat agent translates", true, ["chat", "qir", "vertex", "predicates"]],
    ["separate: the translator agent translates", false, ["chat", "translator", "qir", "vertex", "predicates"]],
  ])("a German question is answered in English terms (%s)", async (_name, batchContext, roles) => {
    const t = await ask(fixture.german, [], config({ batchContext }));
    expect(t.roles).toEqual(roles);
    expect(t.result.standaloneQuestion).toBe(fixture.german.standalone);
    expect(answerValues(t.result)).toEqual([`${RES}J_K_Rowling`]);
  });

  it("a greeting is answered by the Chat agent without querying the KG", async () => {
    const t = await ask(fixture.conversation, [], config());
    expect(t.result.source).toBe("conversation");
    expect(t.result.answer.kind).toBe("chat");
    expect(t.roles).toEqual(["chat"]);
    expect(t.events.filter((e) => e.type === "sparql")).toEqual([]);
    expect(t.result.stats.queries).toBe(0);
  });
});
