// Chatty-KG on KGs unlike the sample and music KGs (issue 20), end to end with a scripted model: no labels at all
// (local names only), names only in the KG's own predicates with urn:uuid IRIs in two named graphs, and questions that
// name only a class and a value. Entities and classes link through the KG lexicon.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { PlainMessage } from "@/lib/llm/testing/replies";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { runTurn } from "@/lib/eval/ck25-scripted";
import { KG_TOOL } from "@/lib/pipeline/common/chat-agent";
import { DEFAULT_CONFIG, type Answer, type DerivationEvent } from "@/lib/pipeline/types";

const BW = "http://example.org/bellworks#";
const FR = "http://example.org/ferries/";
const fixture = (name: string) => path.join(process.cwd(), "test/fixtures/kg/any-kg", name);
const values = (a: Answer) => (a.kind === "items" ? a.items.map((i) => i.value).sort() : []);
const similarity = createLexicalSimilarity();

/** The Chat agent's tool call with the QIR a competent model writes (words of the question only). */
const ask = (question: string, qir: Record<string, unknown>) => ({ toolCall: { name: KG_TOOL, input: { question, language: "en", context_dependent: false, qir } } });

/** A predicate-selection reply choosing the listed predicates whose text passes `test`. */
const pickPredicates = (test: (text: string) => boolean) => (messages: PlainMessage[]) => {
  const user = messages.filter((m) => m.role === "user").at(-1)?.text ?? "";
  const listed = user.split("\nPredicates:\n")[1] ?? "";
  const predicates = [...listed.matchAll(/^(\d+)\. (.*)$/gm)].filter((m) => test(m[2])).map((m) => Number(m[1]));
  return { json: { reasoning: "scripted", predicates, none_fit: predicates.length === 0 } };
};

const lexiconHits = (events: DerivationEvent[]) =>
  events.flatMap((e) => (e.type === "tool-call" && e.tool === "lexicon-search" ? ((e.output as { top: { iri: string; matched: { name: string; via: string } }[] }).top ?? []) : []));

let bells: KnowledgeGraph;
let ferries: KnowledgeGraph;
beforeAll(async () => {
  bells = await openKg({ kind: "files", paths: [fixture("bellworks.ttl")] });
  ferries = await openKg({ kind: "files", paths: [fixture("ferries.trig")] });
}, 60_000);
afterAll(async () => {
  await bells?.close();
  await ferries?.close();
});

async function turn(kg: KnowledgeGraph, question: string, script: Parameters<typeof createScriptedLlm>[0]) {
  const llm = createScriptedLlm(script);
  const run = await runTurn(question, [], DEFAULT_CONFIG, { kg, llm: llm.gateway, similarity });
  return { ...run, llm };
}

describe("Chatty-KG on a KG without labels", () => {
  it("links an entity named only by its IRI's local name, with no vertex choice to make", async () => {
    const q = "Which foundry cast Great Tom?";
    const { result, events, llm } = await turn(bells, q, {
      chat: [ask(q, { entities: ["Great Tom"], unknowns: ["?foundry"], relations: ["cast"], triples: [["Great Tom", "cast", "?foundry"]], target: "?foundry", question_type: "factoid" })],
      predicates: [pickPredicates((t) => t.startsWith("cast"))],
    });
    expect(result.error).toBeUndefined();
    expect(values(result.answer)).toEqual([`${BW}Whitechapel_Foundry`]);
    expect(result.sparql.at(-1)).toContain(`<${BW}GreatTom> <${BW}castBy>`);
    expect(lexiconHits(events)).toContainEqual(expect.objectContaining({ iri: `${BW}GreatTom`, matched: { name: "Great Tom", via: "IRI local name" } }));
    expect(llm.calls.map((c) => c.role)).not.toContain("vertex");
  });

  it("answers a question that names only a class and a value: the class found by its local name, inflection folded", async () => {
    const q = "Which ship bells weigh less than 100 kg?";
    const { result } = await turn(bells, q, {
      chat: [
        ask(q, {
          entities: [],
          unknowns: ["?bell", "?kg"],
          relations: ["weigh"],
          triples: [["?bell", "weigh", "?kg"]],
          target: "?bell",
          question_type: "factoid",
          classes: [{ var: "?bell", class: "ship bells" }],
          filters: [{ var: "?kg", op: "<", value: { text: "100", type: "number" } }],
        }),
      ],
      predicates: [pickPredicates((t) => t.startsWith("weight"))],
    });
    expect(result.error).toBeUndefined();
    expect(values(result.answer)).toEqual([`${BW}OldMercy`, `${BW}SeaWarden`]);
    expect(result.sparql.at(-1)).toContain(`<${BW}ShipBell>`);
  });
});

describe("Chatty-KG compares two named entities", () => {
  it("answers 'which of A and B' by ordering the two on the asked value (VALUES over the linked entities)", async () => {
    const q = "Which is heavier, Great Tom or Little John?";
    const { result, events } = await turn(bells, q, {
      chat: [
        ask(q, {
          entities: [],
          unknowns: ["?bell", "?kg"],
          relations: ["heavier"],
          triples: [["?bell", "heavier", "?kg"]],
          target: "?bell",
          question_type: "factoid",
          among: { var: "?bell", entities: ["Great Tom", "Little John"] },
          order_by: [{ var: "?kg", dir: "desc" }],
          limit: 1,
        }),
      ],
      predicates: [pickPredicates((t) => t.startsWith("weight"))],
    });
    expect(result.error).toBeUndefined();
    expect(values(result.answer)).toEqual([`${BW}GreatTom`]);
    const final = result.sparql.join("\n");
    expect(final).toMatch(/VALUES \?\w+ \{\s*<http:\/\/example\.org\/bellworks#GreatTom>\s*<http:\/\/example\.org\/bellworks#LittleJohn>\s*\}/);
    expect(final).toContain(`<${BW}weightKg>`);
    expect(final).toMatch(/ORDER BY DESC ?\(\?kg\)[\s\S]*LIMIT 1/);
    const linking = events.find((e) => e.type === "stage-end" && e.stage === "entity-linking");
    expect(linking && "summary" in linking ? linking.summary : "").toContain("?bell one of Great Tom");
  });

  it("the QIR validator asks for two entities or more", async () => {
    const q = "Which is heavier, Great Tom or Little John?";
    const one = { entities: [], unknowns: ["?bell", "?kg"], relations: ["heavier"], triples: [["?bell", "heavier", "?kg"]], target: "?bell", question_type: "factoid", among: { var: "?bell", entities: ["Great Tom"] } };
    const { events } = await turn(bells, q, {
      chat: [ask(q, one)],
      qir: [{ json: { ...one, among: { var: "?bell", entities: ["Great Tom", "Little John"] }, order_by: [{ var: "?kg", dir: "desc" }], limit: 1 } }],
      predicates: [pickPredicates((t) => t.startsWith("weight"))],
    });
    const warnings = events.flatMap((e) => (e.type === "warning" ? [e.message] : [])).join(" ");
    expect(warnings).toMatch(/"among" names the entities \?bell is chosen from: give at least two/);
  });
});

describe("Chatty-KG on a KG with names in its own predicates, in named graphs", () => {
  it("links a vessel by its name literal and answers with the company from the other graph", async () => {
    const q = "Which company operates the Tidewalker?";
    const { result, events } = await turn(ferries, q, {
      chat: [ask(q, { entities: ["Tidewalker"], unknowns: ["?company"], relations: ["operates"], triples: [["?company", "operates", "Tidewalker"]], target: "?company", question_type: "factoid" })],
      predicates: [pickPredicates((t) => t.startsWith("operated"))],
    });
    expect(result.error).toBeUndefined();
    expect(values(result.answer)).toEqual(["urn:uuid:7a2b4c6d-1e3f-4a5b-8c9d-0e1f2a3b4c91"]);
    expect(result.sparql.at(-1)).toContain(`<${FR}operatedBy>`);
    expect(lexiconHits(events)).toContainEqual(expect.objectContaining({ iri: "urn:uuid:3f0c9a52-8d1e-4b6a-9c21-5e7d1a0b2c02", matched: { name: "Tidewalker", via: expect.stringContaining("vesselName") } }));
  });
});
