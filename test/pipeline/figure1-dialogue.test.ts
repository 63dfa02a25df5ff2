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

type Played = Awaited<ReturnType<typeof ask>>;

/** The turn with its QIR reply (without the reasoning, plus `change`) as the draft in the Chat agent's tool call. */
function withDraft(turn: z.infer<typeof turnSchema>, change: Record<string, unknown> = {}): z.infer<typeof turnSchema> {
  const chat = turn.replies.chat?.[0] as { toolCall: { name: string; input: Record<string, unknown> } };
  const { reasoning: _reasoning, ...qir } = turn.replies.qir?.[0] as Record<string, unknown>;
  const input = { ...chat.toolCall.input, qir: { ...qir, ...change } };
  return { ...turn, replies: { ...turn.replies, chat: [{ toolCall: { ...chat.toolCall, input } }] } };
}

const stageEnd = (t: Played, stage: string) => t.events.find((e) => e.type === "stage-end" && e.stage === stage);
const summaryOf = (t: Played, stage: string) => {
  const e = stageEnd(t, stage);
  return e?.type === "stage-end" ? e.summary : undefined;
};
const callsOf = (turns: Played[]) => turns.map((t) => t.result.stats.llmCalls);
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** The not-in-KG turn ends as an honest "none" (the model said no predicate fits), never failed, never a guess. */
function expectNoneFromKg(t: Played) {
  expect(t.result.source).toBe("none");
  expect(t.result.error).toBeUndefined();
  expect(t.result.answer).toEqual({ kind: "none", reason: expect.stringMatching(/^The KG has no "mayor" for Hogsmeade \(none of its \d+ candidate predicates fits/) });
  expect(t.result.sparql).toEqual([]);
  // nothing was executed: the execution stage is shown as skipped
  expect(t.events.some((e) => e.type === "sparql" && e.stage === "execution")).toBe(false);
  expect(stageEnd(t, "execution")).toMatchObject({ skipped: true });
  expect(summaryOf(t, "query-selection")).toMatch(/^No predicate fits: The KG has no "mayor" for Hogsmeade/);
}

/**
 * Plays the five turns, carrying each answer into the next turn's dialogue, and checks every answer against the gold;
 * then a sixth turn the KG cannot answer ("Who is the mayor of Hogsmeade?").
 */
async function playFigure1(cfg: PipelineConfig) {
  const dialogue: DialogueTurn[] = [];
  const turns: Played[] = [];
  for (const turn of [...fixture.turns, fixture.notInKg]) {
    const t = await ask(turn, dialogue, cfg);
    expect(t.result.error, `turn ${dialogue.length + 1}`).toBeUndefined();
    expect(t.result.standaloneQuestion).toBe(turn.standalone);
    // count every call, including rejected attempts: the turn's stats agree with what the model was actually sent
    expect(t.result.stats.llmCalls).toBe(t.llm.calls.length);
    turns.push(t);
    dialogue.push({ question: turn.question, answer: t.result.answer });
  }
  const [t1, t2, t3, t4, t5] = turns.map((t) => t.result);

  // t1: the book series' author (not the character's creator, not the film series' producer)
  expect(answerValues(t1)).toEqual([`${RES}J_K_Rowling`]);
  // t2: gold 2001-11-16. "first" is the earliest release date (ORDER BY … LIMIT 1); the answer also names the film the
  // date belongs to, so the dialogue can refer to it later ("what else")
  expect(t2.answer).toEqual({
    kind: "table",
    columns: ["movie", "date"],
    rows: [[expect.objectContaining({ type: "uri", value: `${RES}Harry_Potter_and_the_Philosophers_Stone_film` }), expect.objectContaining({ type: "literal", value: "2001-11-16" })]],
  });
  expect(t2.sparql).toEqual([expect.stringMatching(/ORDER BY \(\?date\)[\s\S]*LIMIT 1$/)]);
  // t3: the actor, not the engineer of the same name
  expect(answerValues(t3)).toEqual([`${RES}Daniel_Radcliffe`]);
  // t4: Daniel Radcliffe the actor's birth date (the engineer was born in 1834)
  expect(answerValues(t4)).toEqual(["1989-07-23"]);
  // t5: exactly the 21 gold films: "else" leaves out what earlier answers named — the first film (t2's answer)
  const films = answerValues(t5);
  expect(films).toEqual([...T5_GOLD].sort());
  expect(t5.sparql.every((q) => q.includes(`FILTER(?film NOT IN(`) && q.includes(`${RES}Harry_Potter_and_the_Philosophers_Stone_film`))).toBe(true);
  // starring and starredIn are two predicates of one relation (stored both ways): both queries ran and are behind the
  // answer, merged, although the planner runs only one wiring per predicate set
  expect(t5.sparql.some((q) => /\/starring>/.test(q))).toBe(true);
  expect(t5.sparql.some((q) => /\/starredIn>/.test(q))).toBe(true);
  // t6: not in the KG
  expectNoneFromKg(turns[5]);

  // t4 and t5 name "Daniel Radcliffe", whom t3 answered with: linked from the dialogue (the actor, not the engineer)
  // without a vertex call, although the KG has two vertices with that label
  for (const t of [turns[3], turns[4]]) {
    const linked = stageEnd(t, "entity-linking");
    expect(linked?.type === "stage-end" && linked.output).toMatchObject({ "Daniel Radcliffe": { iri: `${RES}Daniel_Radcliffe`, how: "context" } });
    expect(summaryOf(t, "entity-linking")).toContain("from the dialogue's previous answer");
  }
  return turns;
}

describe("Figure 1 dialogue on the sample KG", () => {
  it("batched (default): the Chat agent's tool call carries the rewrite and the QIR; ≤ 3 LLM calls per turn on average", async () => {
    const turns = await playFigure1(config());
    const calls = callsOf(turns);
    console.log(`Figure 1 + not-in-KG turn, batched: LLM calls per turn ${calls.join(", ")} (average ${mean(calls).toFixed(2)})`);
    // t1–t3: chat (rewrite + QIR) + vertex choice (every mention is ambiguous on purpose: four "Harry Potter") +
    // predicate choice; t4–t5: the vertex comes from the dialogue; t6: chat + "none fit".
    expect(turns.map((t) => t.roles)).toEqual([
      ["chat", "vertex", "predicates"],
      ["chat", "vertex", "predicates"],
      ["chat", "vertex", "predicates"],
      ["chat", "predicates"],
      ["chat", "predicates"],
      ["chat", "predicates"],
    ]);
    expect(calls).toEqual([3, 3, 3, 2, 2, 2]);
    // the five Figure-1 turns: 2.6 calls per turn; with the not-in-KG turn 2.5
    expect(mean(calls)).toBeLessThanOrEqual(3);
    expect(mean(calls.slice(0, 5))).toBeLessThanOrEqual(3);
    for (const t of turns) expect(summaryOf(t, "qir")).toMatch(/^QIR from the Chat agent's tool call \(validated\): /);
    // the follow-ups were resolved from the previous ANSWERS: "he" (t4) is the answer of t3
    const chatPrompt = turns[3].llm.calls[0].messages.map((m) => m.text).join("\n");
    expect(chatPrompt).toMatch(/A3: Daniel Radcliffe <http:\/\/example\.org\/chatty-kg\/resource\/Daniel_Radcliffe>/);
    expect(chatPrompt).toContain("`qir`");
  });

  it("batchQir off: the QIR agent makes its own call (the paper's separate step); the prompt has no QIR instructions", async () => {
    const turns = await playFigure1(config({ batchQir: false }));
    const calls = callsOf(turns);
    console.log(`Figure 1 + not-in-KG turn, batched context, separate QIR: LLM calls per turn ${calls.join(", ")} (average ${mean(calls).toFixed(2)})`);
    for (const t of turns) expect(t.roles.slice(0, 2)).toEqual(["chat", "qir"]);
    expect(calls).toEqual([4, 4, 4, 3, 3, 3]);
    expect(turns[0].llm.calls[0].messages.map((m) => m.text).join("\n")).not.toContain("`qir`");
    for (const t of turns) expect(summaryOf(t, "qir")).not.toContain("Chat agent");
  });

  it("separate Classifier + Rephraser (batchContext off): the QIR agent runs; turn 1 makes no classifier/rephraser call; the rephraser sees previous answers", async () => {
    const turns = await playFigure1(config({ batchContext: false }));
    expect(turns[0].roles).toEqual(["chat", "qir", "vertex", "predicates"]);
    for (const t of turns.slice(1)) expect(t.roles).toEqual(expect.arrayContaining(["chat", "classifier", "qir"]));
    for (const t of turns.slice(1, 5)) expect(t.roles).toContain("rephraser");
    // the rewrite of "When was he born?" needs t3's answer, which must be in the Rephraser's prompt by its label
    const rephraserPrompt = turns[3].llm.calls.find((c) => c.role === "rephraser")?.messages.map((m) => m.text).join("\n") ?? "";
    expect(rephraserPrompt).toContain("When was he born?");
    expect(rephraserPrompt).toContain("Daniel Radcliffe");
    expect(rephraserPrompt).toMatch(/A3: Daniel Radcliffe/);
    const calls = callsOf(turns);
    console.log(`Figure 1 + not-in-KG turn, separate agents: LLM calls per turn ${calls.join(", ")} (average ${mean(calls).toFixed(2)})`);
    expect(calls).toEqual([4, 6, 6, 5, 5, 4]);
  });
});

describe("other turns on the sample KG", () => {
  it("a question the KG cannot answer ends as 'none' (not failed) after one predicate call that says no predicate fits", async () => {
    const t = await ask(fixture.notInKg, [], config());
    expectNoneFromKg(t);
    expect(t.roles).toEqual(["chat", "predicates"]);
    expect(t.result.stats.llmCalls).toBe(2);
  });

  it("an empty predicate choice WITHOUT none_fit is still rejected and retried θ times, then the turn fails", async () => {
    const empty = { reasoning: "None of these is about a mayor.", predicates: [] };
    const t = await ask({ ...fixture.notInKg, replies: { ...fixture.notInKg.replies, predicates: [empty, empty, empty] } }, [], config());
    expect(t.result.source).toBe("failed");
    expect(t.result.error?.stage).toBe("query-selection");
    expect(t.roles).toEqual(["chat", "predicates", "predicates", "predicates"]);
    expect(t.result.stats.llmCalls).toBe(4);
    // the retry tells the model about none_fit
    expect(t.llm.calls[2].messages.map((m) => m.text).join("\n")).toContain('"none_fit": true');
  });

  it("turn 1 with the QIR draft in its tool call costs 3 calls (chat, vertex, predicates)", async () => {
    const t = await ask(withDraft(fixture.turns[0]), [], config());
    expect(t.roles).toEqual(["chat", "vertex", "predicates"]);
    expect(answerValues(t.result)).toEqual([`${RES}J_K_Rowling`]);
    expect(summaryOf(t, "qir")).toBe("QIR from the Chat agent's tool call (validated): factoid question: ⟨Harry Potter, author, ?author⟩");
  });

  it("an invalid QIR draft in the tool call falls back to the QIR agent's own call, with the validator's reason", async () => {
    const t = await ask(withDraft(fixture.turns[0], { relations: ["has"], triples: [["Harry Potter", "has", "?author"]] }), [], config());
    expect(t.roles).toEqual(["chat", "qir", "vertex", "predicates"]);
    expect(answerValues(t.result)).toEqual([`${RES}J_K_Rowling`]);
    const qirPrompt = t.llm.calls[1].messages.map((m) => m.text).join("\n");
    expect(qirPrompt).toContain('A first draft of this QIR was rejected: triple 1: the relation "has" is a helper word');
    expect(t.events.some((e) => e.type === "warning" && e.stage === "qir" && e.message.includes("QIR draft was rejected"))).toBe(true);
    expect(summaryOf(t, "qir")).not.toContain("Chat agent");
  });

  it.each([
    ["batched: the Chat agent translates and gives the QIR", true, ["chat", "vertex", "predicates"]],
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
