// Triad's relations through the KG's own schema, on a label-less fixture with a subproperty hierarchy and
// domain/range declarations, with questions that name no entity (scripted model): a parent property reaches the
// values its sub-properties hold, and a property the data does not use yet is still offered from its declared domain.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import { KgSchema } from "@/lib/kg/schema";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Answer } from "@/lib/pipeline/types";
import { askKg, optionNumbers, runTriad, summaries } from "@/test/fixtures/kg/triad-harness";
import { declaredBetween, withParents } from "./schema-relations";

const OC = "http://example.org/orchard#";
const values = (a: Answer) => (a.kind === "items" ? a.items.map((i) => i.value).sort() : []);
/** The option lines of a slot in the D-agent's last relation prompt. */
const optionLines = (m: Parameters<typeof optionNumbers>[0], slot: string) => {
  const lines: string[] = [];
  optionNumbers(m, slot, (t) => (lines.push(t), true));
  return lines;
};

const schema = new KgSchema({
  subClassOf: [[`${OC}AppleTree`, `${OC}Tree`]],
  subPropertyOf: [[`${OC}yieldKg`, `${OC}harvest`], [`${OC}yieldCrates`, `${OC}harvest`]],
  inverseOf: [],
  domain: [[`${OC}harvest`, `${OC}Tree`], [`${OC}plantedIn`, `${OC}Tree`]],
  range: [[`${OC}plantedIn`, `${OC}Field`]],
  enumerations: [],
  truncated: false,
});

describe("schema relations (pure)", () => {
  it("adds a found predicate's parent, covering the parent and its sub-properties, once per direction", () => {
    const out = withParents([{ iri: `${OC}yieldKg`, reversed: false }, { iri: `${OC}yieldCrates`, reversed: false }], schema);
    expect(out.slice(2)).toEqual([{ iri: `${OC}harvest`, reversed: false, covers: [`${OC}harvest`, `${OC}yieldKg`, `${OC}yieldCrates`] }]);
  });

  it("reads domain and range between typed ends, a subclass inheriting its parent's declarations", () => {
    expect(declaredBetween([`${OC}AppleTree`], [], schema).map((f) => f.iri).sort()).toEqual([`${OC}harvest`, `${OC}plantedIn`]);
    // asked from the field's side, the edge runs the other way
    expect(declaredBetween([`${OC}Field`], [], schema)).toEqual([{ iri: `${OC}plantedIn`, reversed: true }]);
  });
});

let orchard: KnowledgeGraph;
beforeAll(async () => {
  orchard = await openKg({ kind: "files", paths: [path.join(process.cwd(), "test/fixtures/kg/any-kg/orchard.ttl")] });
}, 60_000);
afterAll(async () => {
  await orchard?.close();
});

describe("Triad through the schema, no entity named", () => {
  it("a parent property reaches the values its sub-properties hold", async () => {
    const question = "Which apple trees have a recorded harvest?";
    let offered: string[] = [];
    const { result } = await runTriad(orchard, question, {
      chat: [askKg(question)],
      generalist: [
        { triplets: [["?t", "type", "apple trees"], ["?t", "harvest", "?h"]], slots: { e0: "apple trees", r0: "harvest" }, template: "SELECT DISTINCT ?t WHERE { ?t a <e0> ; <r0> ?h . }", answer_type: "entities" },
      ],
      decider: [
        (m) => {
          offered = optionLines(m, "r0");
          return { json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("harvest")) } } };
        },
      ],
    });
    expect(offered).toContain("harvest — with its 2 sub-properties");
    expect(values(result.answer)).toEqual([`${OC}Bramley_7`, `${OC}Cox_2`]);
    expect(result.sparql[0]).toMatch(/\(<[^>]*#harvest>(\|<[^>]*#yield(Kg|Crates)>){2}\) \?h/);
  });

  it("offers a property from its declared domain when no triple of the class's instances uses it yet", async () => {
    const question = "In which field is each quince tree planted?";
    const { result, events } = await runTriad(
      orchard,
      question,
      {
        chat: [askKg(question)],
        decider: [(m) => ({ json: { choices: { r0: optionNumbers(m, "r0", (t) => t.startsWith("planted")) } } })],
        generalist: [
          {
            triplets: [["?t", "type", "quince tree"], ["?t", "planted in", "?f"]],
            slots: { e0: "quince tree", r0: "planted in" },
            template: "SELECT DISTINCT ?t ?f WHERE { ?t a <e0> ; <r0> ?f . }",
            answer_type: "entities",
          },
        ],
      },
      { config: { triadRetries: 0 } },
    );
    // the tree's own class declares nothing, its parent's domain does: "planted in" is offered and ranked first
    expect(summaries(events).find((l) => l.startsWith("relation-linking:"))).toMatch(/"planted in" → planted in\b/);
    expect(summaries(events).find((l) => l.startsWith("query-generation:"))).toMatch(/candidate queries/);
    // the queries ran; the data holds no such edge yet, and the KG says so
    expect(result.answer.kind).toBe("none");
  });
});
