// Re-running a Chatty-KG turn from each step on the sample KG with scripted models: the earlier steps' state is reused,
// the user's decision costs no LLM call (the scripted model's call log says which roles were asked), later steps run.
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { scriptFrom } from "@/lib/eval/ck25-scripted";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { USER_CHOICE_TOOL, type Correction } from "@/lib/pipeline/corrections";
import { DEFAULT_CONFIG, type DerivationEvent, type TurnResult } from "@/lib/pipeline/types";
import { sampleKg, SAMPLE_ONT, SAMPLE_RES } from "@/test/fixtures/kg/triad-harness";
import { chattyKgStrategy } from "./strategy";

const kg = sampleKg();
const similarity = createLexicalSimilarity();
const QUESTION = "Which films did Daniel Radcliffe star in?";
const ACTOR = `${SAMPLE_RES}Daniel_Radcliffe`;
const ENGINEER = `${SAMPLE_RES}Daniel_Radcliffe_engineer`;

type Run = { result: TurnResult; events: DerivationEvent[]; roles: string[] };

async function drain(gen: AsyncGenerator<DerivationEvent, TurnResult, void>): Promise<{ result: TurnResult; events: DerivationEvent[] }> {
  const events: DerivationEvent[] = [];
  for (let step = await gen.next(); ; step = await gen.next()) {
    if (step.done) return { result: step.value, events };
    events.push(step.value);
  }
}

/** The first attempt: the model links "Daniel Radcliffe" to the engineer (a same-named trap) and finds no film predicate. */
async function firstAttempt(): Promise<Run> {
  const llm = createScriptedLlm(
    scriptFrom({
      chat: [{ toolCall: { name: KG_TOOL, input: { question: QUESTION, language: "en", context_dependent: false } } }],
      qir: [{ entities: ["Daniel Radcliffe"], unknowns: ["?film"], relations: ["starred in"], triples: [["Daniel Radcliffe", "starred in", "?film"]], target: "?film", question_type: "factoid" }],
      vertex: [{ choices: { "Daniel Radcliffe": "#Engineer" } }],
      predicates: [{ predicates: [], none_fit: true }],
    }),
  );
  const run = await drain(chattyKgStrategy.run({ question: QUESTION, dialogue: [], config: DEFAULT_CONFIG }, { kg, llm: llm.gateway, similarity }));
  return { ...run, roles: llm.calls.map((c) => c.role) };
}

/** A re-run of `base` with `correction`; `replies` script the later steps that may still call the model. */
async function rerun(base: Run, correction: Correction, replies: Parameters<typeof scriptFrom>[0] = {}): Promise<Run> {
  const llm = createScriptedLlm(scriptFrom(replies));
  const input = { question: QUESTION, dialogue: [], config: DEFAULT_CONFIG, correction, snapshot: base.result.snapshot, baseTrace: base.events };
  chattyKgStrategy.rerun!.check(input);
  const run = await drain(chattyKgStrategy.rerun!.run(input, { kg, llm: llm.gateway, similarity }));
  return { ...run, roles: llm.calls.map((c) => c.role) };
}

const values = (r: TurnResult) => (r.answer.kind === "items" ? r.answer.items.map((i) => i.value.replace(SAMPLE_RES, "")).sort() : []);
const linked = (r: TurnResult) => (r.snapshot as { vertices?: Record<string, { iri: string; how: string }> }).vertices?.["Daniel Radcliffe"];
const stageEnds = (events: DerivationEvent[]) => events.filter((e) => e.type === "stage-end").map((e) => e.stage);
const BOTH_WAYS = { predicates: [{ predicates: ["#^starring", "#^starred in"] }] };

describe("re-running a Chatty-KG turn from a corrected step", () => {
  it("the first attempt took the same-named engineer and found nothing; choosing the actor answers, asking only for the predicates", async () => {
    const first = await firstAttempt();
    expect(first.roles).toEqual(["chat", "qir", "vertex", "predicates"]);
    expect(linked(first.result)?.iri).toBe(ENGINEER);
    expect(first.result.answer.kind).toBe("none");

    const second = await rerun(first, { kind: "vertex", mention: "Daniel Radcliffe", iri: ACTOR, label: "Daniel Radcliffe" }, BOTH_WAYS);
    // no chat, QIR or vertex call: the question, its QIR and the user's vertex are reused; predicates are chosen anew
    expect(second.roles).toEqual(["predicates"]);
    expect(second.result.stats.llmCalls).toBe(1);
    expect(linked(second.result)).toMatchObject({ iri: ACTOR, how: "user" });
    expect(values(second.result)).toContain("Swiss_Army_Man"); // only actor → film (starredIn)
    expect(values(second.result)).toContain("Now_You_See_Me_2"); // only film → actor (starring)
    expect(values(second.result)).toHaveLength(22);
    // the kept steps are shown again (QIR and the label search the user chose from), then the user's choice
    const choice = second.events.findIndex((e) => e.type === "tool-call" && e.tool === USER_CHOICE_TOOL);
    expect(second.events[choice]).toMatchObject({ stage: "entity-linking", input: { kind: "vertex", iri: ACTOR } });
    expect(second.events.slice(0, choice).some((e) => e.type === "stage-end" && e.stage === "qir")).toBe(true);
    expect(second.events.slice(0, choice).some((e) => e.type === "tool-call" && e.tool === "label-search")).toBe(true);
    expect(second.events.some((e) => e.stage === "chat")).toBe(false);
    expect(stageEnds(second.events)).toEqual(["classify", "qir", "entity-linking", "relation-linking", "query-generation", "query-selection", "execution"]);
    const decided = second.events.find((e) => e.type === "stage-end" && e.stage === "entity-linking");
    expect(decided).toMatchObject({ summary: expect.stringContaining("Your choice: Daniel Radcliffe → Daniel Radcliffe (your choice") });
  });

  it("at query selection: unticking a predicate changes the answer and asks the model nothing", async () => {
    const second = await rerun(await firstAttempt(), { kind: "vertex", mention: "Daniel Radcliffe", iri: ACTOR }, BOTH_WAYS);
    const third = await rerun(second, { kind: "predicates", predicates: [`${SAMPLE_ONT}starring`] });
    expect(third.roles).toEqual([]);
    expect(third.result.stats.llmCalls).toBe(0);
    expect(values(third.result)).toContain("Now_You_See_Me_2");
    expect(values(third.result)).not.toContain("Swiss_Army_Man");
    expect(values(third.result).length).toBeLessThan(values(second.result).length);
    // entity linking, relation linking and query generation were not run again: no label search, no ranking query
    expect(third.events.filter((e) => e.type === "sparql" && e.stage !== "execution")).toEqual(
      second.events.filter((e) => e.type === "sparql" && e.stage !== "execution" && e.stage !== "query-selection"),
    );
  });

  it("at query generation: runs exactly the candidate chosen", async () => {
    const second = await rerun(await firstAttempt(), { kind: "vertex", mention: "Daniel Radcliffe", iri: ACTOR }, BOTH_WAYS);
    const candidates = (second.result.snapshot as { candidates: { id: number; kind: string; predicates: string[] }[] }).candidates;
    const outgoing = candidates.find((c) => c.kind === "SELECT" && c.predicates.every((p) => p === `${SAMPLE_ONT}starredIn`))!;
    const third = await rerun(second, { kind: "candidate", id: outgoing.id });
    expect(third.roles).toEqual([]);
    const executed = (third.result.snapshot as { executed: { id: number }[] }).executed;
    expect(executed.map((q) => q.id)).toEqual([outgoing.id]);
    expect(values(third.result)).toContain("Swiss_Army_Man");
    expect(values(third.result)).not.toContain("Now_You_See_Me_2");
  });

  it("at relation linking: keeping one predicate regenerates the queries from it (one option left: no selection call)", async () => {
    const second = await rerun(await firstAttempt(), { kind: "vertex", mention: "Daniel Radcliffe", iri: ACTOR }, BOTH_WAYS);
    const third = await rerun(second, { kind: "relation-predicates", predicates: { "starred in": [`${SAMPLE_ONT}starredIn`] } });
    expect(third.roles).toEqual([]);
    const candidates = (third.result.snapshot as { candidates: { predicates: string[] }[] }).candidates;
    expect(candidates.flatMap((c) => c.predicates).every((p) => p === `${SAMPLE_ONT}starredIn`)).toBe(true);
    expect(values(third.result)).toContain("Swiss_Army_Man");
    expect(values(third.result)).not.toContain("Now_You_See_Me_2");
  });

  it("at the QIR: an edited triple is linked again without a QIR call, and the vertex the user chose stays chosen", async () => {
    const second = await rerun(await firstAttempt(), { kind: "vertex", mention: "Daniel Radcliffe", iri: ACTOR }, BOTH_WAYS);
    const third = await rerun(second, { kind: "qir-triple", index: 0, triple: { subject: "Daniel Radcliffe", relation: "birth date", object: "?film" } }, {
      predicates: [{ predicates: ["#^birth ?date"] }],
    });
    // no qir call (the user wrote it) and no vertex call (the actor stays): only the new relation's predicates
    expect(third.roles).toEqual(["predicates"]);
    expect(linked(third.result)).toMatchObject({ iri: ACTOR, how: "user" });
    expect(third.result.answer).toEqual({ kind: "items", items: [{ type: "literal", value: "1989-07-23", datatype: "http://www.w3.org/2001/XMLSchema#date" }] });
  });

  it("refuses corrections that do not fit the attempt, before anything runs", async () => {
    const first = await firstAttempt();
    const check = (correction: Correction) => () =>
      chattyKgStrategy.rerun!.check({ question: QUESTION, dialogue: [], config: DEFAULT_CONFIG, correction, snapshot: first.result.snapshot });
    expect(check({ kind: "vertex", mention: "Emma Watson", iri: ACTOR })).toThrow(/not an entity of this question/);
    expect(check({ kind: "vertex", mention: "Daniel Radcliffe", iri: "http://x/a b>" })).toThrow(/Not a usable IRI/);
    expect(check({ kind: "predicates", predicates: [`${SAMPLE_ONT}nope`] })).toThrow(/Not a predicate of the candidate queries/);
    expect(check({ kind: "candidate", id: 9999 })).toThrow(/no candidate query #9999/);
    expect(check({ kind: "qir-triple", index: 3, triple: { subject: "a", relation: "b", object: "?c" } })).toThrow(/there is no triple 4/);
    expect(check({ kind: "qir-triple", index: 0, triple: { subject: "Daniel Radcliffe", relation: "starred in", object: "?x" } })).toThrow(/"target"/);
    expect(() =>
      chattyKgStrategy.rerun!.check({ question: QUESTION, dialogue: [], config: DEFAULT_CONFIG, correction: { kind: "candidate", id: 1 }, snapshot: { version: 0 } }),
    ).toThrow(/saved state cannot be re-run/);
  });
});
