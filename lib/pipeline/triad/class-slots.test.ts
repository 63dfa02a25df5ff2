// Triad's class slots on label-less fixture KGs, with a scripted model: a class slot typing a linked entity takes that
// entity's own types (the G-agent's guess of the class's name need not match), and a class slot over instances named
// after the class offers the class first.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Answer } from "@/lib/pipeline/types";
import { askKg, optionNumbers, runTriad } from "@/test/fixtures/kg/triad-harness";
import { classSlotsOfEntities } from "./class-slots";
import { parseTemplate } from "./template";

const BW = "http://example.org/bellworks#";
const LT = "http://example.org/lighting#";
const fixture = (name: string) => path.join(process.cwd(), "test/fixtures/kg/any-kg", name);
const values = (a: Answer) => (a.kind === "items" ? a.items.map((i) => i.value).sort() : []);

let bells: KnowledgeGraph;
let lighting: KnowledgeGraph;
beforeAll(async () => {
  bells = await openKg({ kind: "files", paths: [fixture("bellworks.ttl")] });
  lighting = await openKg({ kind: "files", paths: [fixture("lighting.ttl")] });
}, 60_000);
afterAll(async () => {
  await bells?.close();
  await lighting?.close();
});

describe("class slots", () => {
  it("finds the class slots that type an entity slot", () => {
    const parsed = parseTemplate("SELECT ?b WHERE { ?b a <e0> ; <r0> <e1> . <e1> a <e2> . }");
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(classSlotsOfEntities({ template: parsed.value, mentions: {}, triplets: [], answerType: "entities" })).toEqual(new Map([["e2", "e1"]]));
  });

  it("fills the class of a linked entity from its own types, without a choice, when no class bears the mention's name", async () => {
    const question = "Which bells did the bell maker Whitechapel Foundry cast?";
    const { result, llm } = await runTriad(bells, question, {
      chat: [askKg(question)],
      generalist: [
        {
          triplets: [["?b", "cast by", "Whitechapel Foundry"], ["Whitechapel Foundry", "type", "bell maker"]],
          slots: { e0: "Whitechapel Foundry", e1: "bell maker", r0: "cast" },
          template: "SELECT DISTINCT ?b WHERE { ?b <r0> <e0> . <e0> a <e1> . }",
          answer_type: "entities",
        },
      ],
      decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("cast")) } } })],
    });
    expect(values(result.answer)).toEqual([`${BW}GreatTom`, `${BW}OldMercy`]);
    expect(result.sparql[0]).toContain(`<${BW}Whitechapel_Foundry> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <${BW}Foundry>`);
    // the one D-agent call is the relation's: the entity and its class needed no choice
    expect(llm.calls.filter((c) => c.role === "decider")).toHaveLength(1);
  });

  it("of a linked entity's types, keeps those bearing the mention's words (a broad second type would widen the answer)", async () => {
    const question = "Which lamp posts are like Harbour Lamps Post 1?";
    const { result, llm } = await runTriad(lighting, question, {
      chat: [askKg(question)],
      generalist: [
        {
          triplets: [["?p", "type", "lamp posts"], ["Harbour Lamps Post 1", "type", "lamp posts"]],
          slots: { e0: "Harbour Lamps Post 1", e1: "lamp posts" },
          template: "SELECT DISTINCT ?p WHERE { ?p a <e1> . <e0> a <e1> . }",
          answer_type: "entities",
        },
      ],
      decider: [(m) => ({ json: { choices: { e0: optionNumbers(m, "e0", (t) => t === "Harbour Lamps Post 1") } } })],
    });
    expect(values(result.answer)).toEqual([1, 2, 3, 4].map((i) => `${LT}px${i}`));
    expect(result.sparql[0]).toContain(`<${LT}LampPost>`);
    // one choice, the post's; its class needed none
    expect(llm.calls.filter((c) => c.role === "decider")).toHaveLength(1);
  });

  it("offers the class first when two dozen instances carry its name", async () => {
    const question = "What are all the lamps?";
    let offered: string[] = [];
    const { result } = await runTriad(lighting, question, {
      chat: [askKg(question)],
      generalist: [{ triplets: [["?x", "type", "lamps"]], slots: { e0: "lamps" }, template: "SELECT DISTINCT ?x WHERE { ?x a <e0> . }", answer_type: "entities" }],
      decider: [
        (m) => {
          const prompt = m.filter((x) => x.role === "user").at(-1)?.text ?? "";
          offered = (prompt.split("Options:\n")[1] ?? "").split("\n").filter((l) => /^\d+\. /.test(l));
          return { json: { choices: { e0: optionNumbers(m, "e0", (t) => t === "Lamp" || t.startsWith("Lamp —")) } } };
        },
      ],
    });
    expect(offered.length).toBeGreaterThan(2);
    expect(offered[0]).toMatch(/^1\. Lamp\b(?! Post)/);
    expect(values(result.answer)).toHaveLength(24);
    expect(result.sparql[0]).toContain(`<${LT}Lamp>`);
  });
});
