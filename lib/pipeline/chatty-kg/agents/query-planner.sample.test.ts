// End to end over the sample KG in the real embedded store (worker + label index): matching, then query planning.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEmbeddedKg, type EmbeddedKg } from "@/lib/kg/embedded/embedded-kg";
import { createScriptedLlm, type Script } from "@/lib/llm/testing/scripted-model";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import type { ChattyState, Qir } from "../state";
import { matchingAgent } from "./matching-agent";
import { queryPlanningAgent } from "./query-planner";

const RES = "http://example.org/chatty-kg/resource/";
const ONT = "http://example.org/chatty-kg/ontology/";
let kg: EmbeddedKg;

beforeAll(async () => {
  kg = await createEmbeddedKg({
    name: "Sample KG",
    sources: [{ path: path.join(process.cwd(), "kg/sample.ttl") }],
    profile: {
      labelPredicates: ["http://www.w3.org/2000/01/rdf-schema#label", "http://www.w3.org/2004/02/skos/core#altLabel", "https://schema.org/name"],
      descriptionPredicates: ["http://www.w3.org/2000/01/rdf-schema#comment", "https://schema.org/description"],
    },
  });
});
afterAll(async () => kg?.close());

const lineNumber = (messages: PlainMessage[], test: (text: string) => boolean) =>
  (messages.at(-1)?.text.split("\n") ?? []).filter((l) => /^\d+\. /.test(l) && test(l.replace(/^\d+\. /, ""))).map((l) => Number(l.split(".")[0]));

async function ask(question: string, qir: Qir, script: Script) {
  const llm = createScriptedLlm(script);
  const t = createTestContext({ kg, llm: llm.gateway });
  let state: ChattyState = { question, dialogue: [], config: DEFAULT_CONFIG, qir };
  state = { ...state, ...(await matchingAgent(state, t.ctx)) };
  expect(state.failure).toBeUndefined();
  state = { ...state, ...(await queryPlanningAgent(state, t.ctx)) };
  return { state, llm, ...t };
}

describe("sample KG, embedded store", () => {
  it("fig1-t1: picks the book series among same-named vertices and finds its author (2 LLM calls)", async () => {
    const { state, llm } = await ask(
      "Who is the author of Harry Potter?",
      { entities: ["Harry Potter"], unknowns: ["?author"], relations: ["author"], triples: [{ subject: "Harry Potter", relation: "author", object: "?author" }], target: "?author", questionType: "factoid" },
      {
        vertex: [(m) => ({ choices: { "Harry Potter": lineNumber(m, (l) => l.startsWith("Harry Potter — type: book series"))[0] } })],
        predicates: [(m) => ({ reasoning: "authorship", predicates: lineNumber(m, (l) => /^(author|wrote)\b/.test(l)) })],
      },
    );
    expect(state.vertices?.["Harry Potter"].iri).toBe(`${RES}Harry_Potter`);
    expect(state.answerItems).toEqual([{ type: "uri", value: `${RES}J_K_Rowling`, label: expect.stringMatching(/Rowling/) }]);
    expect(llm.calls.map((c) => c.role)).toEqual(["vertex", "predicates"]);
  });

  it("links a mention with one candidate without the LLM and lists all founders", async () => {
    const { state, llm } = await ask(
      "Who founded Bloomsbury?",
      { entities: ["Bloomsbury"], unknowns: ["?founder"], relations: ["founded"], triples: [{ subject: "?founder", relation: "founded", object: "Bloomsbury" }], target: "?founder", questionType: "factoid" },
      { predicates: [(m) => ({ predicates: lineNumber(m, (l) => /^(founder|founders|founded by)( \(|$)/.test(l)) })] },
    );
    expect(state.vertices?.Bloomsbury).toMatchObject({ iri: `${RES}Bloomsbury_Publishing`, how: "single" });
    expect(state.relationPredicates?.founded[0].iri).toBe(`${ONT}founders`);
    expect(state.answerItems?.map((i) => i.value).sort()).toEqual(
      ["Alan_Wherry", "David_Reynolds", "Liz_Calder", "Nigel_Newton"].map((x) => `${RES}${x}`),
    );
    expect(llm.calls.map((c) => c.role)).toEqual(["predicates"]);
  });

  it("fig1-t5: follows both starring (in) and starredIn (out) for the actor, not the engineer", async () => {
    const { state } = await ask(
      "What has Daniel Radcliffe starred in?",
      { entities: ["Daniel Radcliffe"], unknowns: ["?film"], relations: ["starred in"], triples: [{ subject: "Daniel Radcliffe", relation: "starred in", object: "?film" }], target: "?film", questionType: "factoid" },
      {
        vertex: [(m) => ({ choices: { "Daniel Radcliffe": lineNumber(m, (l) => /type: [^;]*\bactor\b/.test(l))[0] } })],
        predicates: [(m) => ({ predicates: lineNumber(m, (l) => /^(starring|starred in)\b/.test(l)) })],
      },
    );
    expect(state.vertices?.["Daniel Radcliffe"].iri).toBe(`${RES}Daniel_Radcliffe`);
    const films = state.answerItems?.map((i) => i.value) ?? [];
    expect(films).toEqual(expect.arrayContaining([`${RES}Harry_Potter_and_the_Philosophers_Stone_film`, `${RES}Swiss_Army_Man`, `${RES}Guns_Akimbo`]));
    expect(films.length).toBeGreaterThanOrEqual(22);
  });
});
