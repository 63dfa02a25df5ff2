// Re-running on the second KG (kg/music.ttl: names in foaf:name / dcterms:title / tv:trackTitle, same-named album and
// tracks "Aurora"): the user picks the other "Aurora" and the turn answers for it; an edited final query runs as written.
import { describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { scriptFrom } from "@/lib/eval/ck25-scripted";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { finalQueryRerun } from "@/lib/pipeline/common/final-query-rerun";
import type { Correction } from "@/lib/pipeline/corrections";
import { DEFAULT_CONFIG, type DerivationEvent, type TurnResult } from "@/lib/pipeline/types";
import { musicKg, MUSIC_ID, MUSIC_VOCAB } from "@/test/fixtures/kg/triad-harness";
import { chattyKgStrategy } from "./strategy";

const kg = musicKg();
const similarity = createLexicalSimilarity();
const QUESTION = "How long is Aurora?";

async function drain(gen: AsyncGenerator<DerivationEvent, TurnResult, void>) {
  const events: DerivationEvent[] = [];
  for (let step = await gen.next(); ; step = await gen.next()) {
    if (step.done) return { result: step.value, events };
    events.push(step.value);
  }
}

async function rerun(base: { result: TurnResult; events: DerivationEvent[] }, correction: Correction, replies: Parameters<typeof scriptFrom>[0] = {}) {
  const llm = createScriptedLlm(scriptFrom(replies));
  const input = { question: QUESTION, dialogue: [], config: DEFAULT_CONFIG, correction, snapshot: base.result.snapshot, baseTrace: base.events };
  const rerunner = correction.kind === "final-query" ? finalQueryRerun : chattyKgStrategy.rerun!;
  rerunner.check(input);
  return { ...(await drain(rerunner.run(input, { kg, llm: llm.gateway, similarity }))), roles: llm.calls.map((c) => c.role) };
}

const DURATION = { predicates: [{ predicates: ["#^duration"] }] };

describe("re-running on the music KG", () => {
  it("the album 'Aurora' has no length; choosing either track 'Aurora' answers with that track's duration", async () => {
    const llm = createScriptedLlm(
      scriptFrom({
        chat: [{ toolCall: { name: KG_TOOL, input: { question: QUESTION, language: "en", context_dependent: false } } }],
        qir: [{ entities: ["Aurora"], unknowns: ["?length"], relations: ["length"], triples: [["Aurora", "length", "?length"]], target: "?length", question_type: "factoid" }],
        vertex: [{ choices: { Aurora: "#type: Album" } }],
        predicates: [{ predicates: [], none_fit: true }],
      }),
    );
    const first = await drain(chattyKgStrategy.run({ question: QUESTION, dialogue: [], config: DEFAULT_CONFIG }, { kg, llm: llm.gateway, similarity }));
    expect(llm.calls.map((c) => c.role)).toEqual(["chat", "qir", "vertex", "predicates"]);
    expect(first.result.answer.kind).toBe("none");

    const second = await rerun(first, { kind: "vertex", mention: "Aurora", iri: `${MUSIC_ID}track-aurora-2`, label: "Aurora" }, DURATION);
    expect(second.roles).toEqual(["predicates"]);
    expect(second.result.answer).toEqual({ kind: "items", items: [{ type: "literal", value: "281", datatype: "http://www.w3.org/2001/XMLSchema#integer" }] });
    expect(second.result.sparql.join("\n")).toContain(`<${MUSIC_VOCAB}duration>`);

    // corrected again, from the second attempt: the other track (the QIR is still not asked for)
    const third = await rerun(second, { kind: "vertex", mention: "Aurora", iri: `${MUSIC_ID}track-lantern-festival-1` }, DURATION);
    expect(third.roles).toEqual(["predicates"]);
    expect(third.result.answer).toMatchObject({ kind: "items", items: [{ value: "268" }] });
  });

  it("a new vertex keeps what entity linking linked besides the vertices (a value the KG holds as a literal)", async () => {
    const question = "Who plays drums in Salt Lanterns?";
    const llm = createScriptedLlm(
      scriptFrom({
        chat: [{ toolCall: { name: KG_TOOL, input: { question, language: "en", context_dependent: false } } }],
        qir: [{ entities: ["Salt Lanterns"], unknowns: ["?m"], relations: ["member", "plays"], triples: [["Salt Lanterns", "member", "?m"], ["?m", "plays", "drums"]], values: [{ text: "drums", type: "string" }], target: "?m", question_type: "factoid" }],
        predicates: [{ predicates: ["#^member", "#^plays"] }],
      }),
    );
    const first = await drain(chattyKgStrategy.run({ question, dialogue: [], config: DEFAULT_CONFIG }, { kg, llm: llm.gateway, similarity }));
    expect(first.result.answer).toMatchObject({ kind: "items", items: [{ value: `${MUSIC_ID}person-Yuto-Sana` }] });
    expect((first.result.snapshot as { literals?: object }).literals).toBeDefined();
    const band = await rerun({ ...first, result: first.result }, { kind: "vertex", mention: "Salt Lanterns", iri: `${MUSIC_ID}band-Hollow-Pines`, label: "Hollow Pines" }, {
      predicates: [{ predicates: ["#^member", "#^plays"] }],
    });
    expect(band.roles).toEqual(["predicates"]);
    expect(band.result.answer).toMatchObject({ kind: "items", items: [{ value: `${MUSIC_ID}person-Ravi-Anand` }] });
    expect((band.result.snapshot as { literals?: object }).literals).toEqual((first.result.snapshot as { literals?: object }).literals);
  });

  it("an edited final query runs as the user wrote it, with no model call, and answers from the KG", async () => {
    const query = `PREFIX tv: <${MUSIC_VOCAB}>\nSELECT ?d WHERE { ?t tv:trackTitle "Aurora" ; tv:duration ?d } ORDER BY ?d`;
    const base = { result: { answer: { kind: "none" as const, reason: "" }, source: "none" as const, sparql: [], stats: { ms: 0, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 0, stageMs: {} } }, events: [] };
    const run = await rerun(base, { kind: "final-query", query });
    expect(run.roles).toEqual([]);
    expect(run.result.source).toBe("kg");
    expect(run.result.answer).toMatchObject({ kind: "items", items: [{ value: "268" }, { value: "281" }] });
    // the row cap was added to the query that ran, which is the one recorded
    expect(run.result.sparql[0]).toMatch(/LIMIT 1000/);
  });
});
