import path from "node:path";
import { describe, expect, it } from "vitest";
import { readJsonl } from "@/lib/eval/datasets/jsonl";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createTestContext } from "@/test/fixtures/kg/harness";
import { musicKg, sampleKg } from "@/test/fixtures/kg/triad-harness";
import { defaultExamples, renderExamples, selectExamples } from "./examples";
import { validateGeneralist } from "./generalist";

const NAMES = /\b(film|novel|book|author|actor|album|band|track|artist|genre|supplier|employee|department|product|hardware)s?\b/i;

describe("default examples", () => {
  it("are valid G-agent answers (each template parses and names its slots) over a vocabulary of no test or benchmark KG", () => {
    const all = defaultExamples();
    expect(all.length).toBeGreaterThanOrEqual(6);
    for (const e of all) {
      const checked = validateGeneralist({ triplets: e.triplets, template: e.template, slots: e.slots, answer_type: e.answer_type });
      expect(checked.ok, `${e.question}: ${checked.ok ? "" : checked.reason}`).toBe(true);
      expect(`${e.question} ${JSON.stringify(e.slots)}`).not.toMatch(NAMES);
    }
    expect(new Set(all.map((e) => e.answer_type))).toEqual(new Set(["entities", "count", "boolean", "value"]));
  });
});

describe("selectExamples", () => {
  it("shows N examples, the most similar to the question first", async () => {
    const { ctx } = createTestContext({ kg: sampleKg(), llm: createScriptedLlm().gateway });
    const { examples, origins } = await selectExamples("How many recipes has Oda Varga published?", 2, ctx);
    expect(examples).toHaveLength(2);
    expect(examples[0].question).toBe("How many recipes has chef Oda Varga published?");
    expect(origins).toEqual(["default", "default"]);
    expect((await selectExamples("anything", 0, ctx)).examples).toEqual([]);
  });

  it("prefers the KG's own examples (pool and profile, by similarity) to the defaults, as templates named by the KG's labels", async () => {
    const kg = musicKg({
      examples: [
        { question: "Who plays in Salt Lanterns?", sparql: "PREFIX t: <http://example.org/tunes/id/> PREFIX tv: <http://example.org/tunes/vocab#> SELECT ?m WHERE { t:band-Salt-Lanterns tv:member ?m }" },
        { question: "broken", sparql: "SELECT WHERE {" },
      ],
    });
    const { ctx } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const pool = async () => [{ question: "Which tracks are on Tidewater?", sparql: "SELECT ?t WHERE { ?t <http://example.org/tunes/vocab#onAlbum> <http://example.org/tunes/id/album-tidewater> }" }];
    const { examples, origins } = await selectExamples("Who plays in The Paper Comets?", 3, ctx, pool);
    expect(origins).toEqual(["profile", "pool", "default"]);
    expect(examples[0]).toEqual({
      question: "Who plays in Salt Lanterns?",
      triplets: [["Salt Lanterns", "member", "?m"]],
      slots: { e0: "Salt Lanterns", r0: "member" },
      template: "SELECT ?m WHERE { <e0> <r0> ?m. }",
      answer_type: "entities",
    });
    expect(examples[1].slots).toEqual({ e0: "Tidewater", r0: "appears on" }); // tv:onAlbum's label in the KG
    expect(renderExamples(examples.slice(0, 1))).toBe(
      'Example 1\nQuestion: Who plays in Salt Lanterns?\nAnswer: {"triplets":[["Salt Lanterns","member","?m"]],"slots":{"e0":"Salt Lanterns","r0":"member"},"template":"SELECT ?m WHERE { <e0> <r0> ?m. }","answer_type":"entities"}',
    );
  });
});

describe("the music KG profile's examples (kg/music.profile.json)", () => {
  it("are questions the KG answers, none of them a gold question of kg/music-questions.jsonl, and become templates", async () => {
    const kg = musicKg();
    const own = kg.profile.examples ?? [];
    expect(own.length).toBeGreaterThanOrEqual(3);
    const gold = readJsonl(path.join(process.cwd(), "kg/music-questions.jsonl")).map((i) => i.question.toLowerCase());
    for (const e of own) {
      expect(gold).not.toContain(e.question.toLowerCase());
      const r = await kg.select(e.sparql);
      expect(r.results.bindings.length, e.question).toBeGreaterThan(0);
    }
    const { ctx } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const { origins } = await selectExamples("What does Disa Ran play?", 3, ctx);
    expect(origins).toEqual(["profile", "profile", "profile"]);
  });
});

