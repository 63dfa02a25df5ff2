import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG, type DialogueTurn } from "@/lib/pipeline/types";
import { createFixtureKg, createTestContext, RES } from "@/test/fixtures/kg/harness";
import type { ChattyState, Qir } from "../state";
import { contextEntitiesFor, linkFromContext } from "./context-linking";
import { entityLinkingAgent } from "./matching-agent";

const kg = createFixtureKg();
const ACTOR = `${RES}Daniel_Radcliffe`;
const said = (question: string, ...items: { value: string; label?: string }[]): DialogueTurn => ({
  question,
  answer: { kind: "items", items: items.map((i) => ({ type: "uri" as const, ...i })) },
});
const T3 = said("Who played Harry Potter?", { value: ACTOR, label: "Daniel Radcliffe" });
const bornQir: Qir = {
  entities: ["Daniel Radcliffe"],
  unknowns: ["?date"],
  relations: ["birth date"],
  triples: [{ subject: "Daniel Radcliffe", relation: "birth date", object: "?date" }],
  target: "?date",
  questionType: "factoid",
};

describe("contextEntitiesFor", () => {
  it("finds the entity a previous answer named, by normalised label", () => {
    expect(contextEntitiesFor("daniel  RADCLIFFE", [T3], DEFAULT_CONFIG)).toEqual([{ iri: ACTOR, label: "Daniel Radcliffe" }]);
    expect(contextEntitiesFor("Radcliffe", [T3], DEFAULT_CONFIG)).toEqual([]);
  });

  it("ignores the dialogue in single-turn mode and items beyond L; lists every distinct IRI of a shared label", () => {
    expect(contextEntitiesFor("Daniel Radcliffe", [T3], { ...DEFAULT_CONFIG, mode: "single" })).toEqual([]);
    const late = said("Who?", { value: `${RES}X`, label: "X" }, { value: ACTOR, label: "Daniel Radcliffe" });
    expect(contextEntitiesFor("Daniel Radcliffe", [late], { ...DEFAULT_CONFIG, answerLimit: 1 })).toEqual([]);
    const twice = [T3, T3, said("And the engineer?", { value: `${RES}Daniel_Radcliffe_engineer`, label: "Daniel Radcliffe" })];
    expect(contextEntitiesFor("Daniel Radcliffe", twice, DEFAULT_CONFIG)).toHaveLength(2);
  });

  it("finds an entity in any cell of a table answer's first L rows", () => {
    const film = { type: "uri" as const, value: `${RES}Film`, label: "The Film" };
    const actor = { type: "uri" as const, value: ACTOR, label: "Daniel Radcliffe" };
    const table: DialogueTurn = { question: "Films and their stars?", answer: { kind: "table", columns: ["film", "star"], rows: [[film, null], [film, actor]] } };
    expect(contextEntitiesFor("Daniel Radcliffe", [table], DEFAULT_CONFIG)).toEqual([{ iri: ACTOR, label: "Daniel Radcliffe" }]);
    expect(contextEntitiesFor("Daniel Radcliffe", [table], { ...DEFAULT_CONFIG, answerLimit: 1 })).toEqual([]);
  });
});

describe("linkFromContext", () => {
  it("links without a query when the IRI is among the label-search candidates", async () => {
    const { ctx, sparql } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const v = await linkFromContext("Daniel Radcliffe", [{ iri: ACTOR, label: "Daniel Radcliffe", score: 1 }, { iri: `${RES}Other`, label: "Daniel Radcliffe", score: 1 }], [T3], ctx);
    expect(v).toEqual({ mention: "Daniel Radcliffe", iri: ACTOR, label: "Daniel Radcliffe", candidates: 2, how: "context" });
    expect(sparql()).toHaveLength(0);
  });

  it("checks an IRI the label search did not return with one ASK, and refuses one the KG does not hold", async () => {
    const { ctx, sparql } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    expect(await linkFromContext("Daniel Radcliffe", [], [T3], ctx)).toMatchObject({ iri: ACTOR, how: "context", candidates: 0 });
    const ghost = said("Who?", { value: `${RES}Nobody`, label: "Daniel Radcliffe" });
    expect(await linkFromContext("Daniel Radcliffe", [], [ghost], ctx)).toBeUndefined();
    expect(sparql().map((q) => q.query.trim().slice(0, 3))).toEqual(["ASK", "ASK"]);
  });

  it("leaves an ambiguous dialogue (two entities with the label) to the other linkers", async () => {
    const { ctx } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const both = [T3, said("And the engineer?", { value: `${RES}Daniel_Radcliffe_engineer`, label: "Daniel Radcliffe" })];
    expect(await linkFromContext("Daniel Radcliffe", [{ iri: ACTOR, label: "Daniel Radcliffe", score: 1 }], both, ctx)).toBeUndefined();
  });
});

describe("entityLinkingAgent with a dialogue", () => {
  it("links a same-named mention to the previous answer's entity without the vertex-selection call", async () => {
    const llm = createScriptedLlm(); // no vertex reply: a call would fail the test
    const { ctx } = createTestContext({ kg, llm: llm.gateway });
    const state: ChattyState = { question: "When was he born?", standaloneQuestion: "When was Daniel Radcliffe born?", dialogue: [T3], config: DEFAULT_CONFIG, qir: bornQir };
    const update = await entityLinkingAgent(state, ctx);
    expect(update.failure).toBeUndefined();
    expect(update.vertices).toEqual({ "Daniel Radcliffe": expect.objectContaining({ iri: ACTOR, how: "context" }) });
    expect(llm.calls).toHaveLength(0);
  });

  it("without that answer in the dialogue, the same mention needs the LLM", async () => {
    const llm = createScriptedLlm({ vertex: [{ choices: { "Daniel Radcliffe": 1 } }] });
    const { ctx } = createTestContext({ kg, llm: llm.gateway });
    const state: ChattyState = { question: "When was Daniel Radcliffe born?", dialogue: [], config: DEFAULT_CONFIG, qir: bornQir };
    const update = await entityLinkingAgent(state, ctx);
    expect(update.vertices?.["Daniel Radcliffe"].how).toBe("llm");
    expect(llm.calls.map((c) => c.role)).toEqual(["vertex"]);
  });
});
