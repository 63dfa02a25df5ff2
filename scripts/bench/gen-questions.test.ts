// The generated-KG bench questions: names come from the generator itself, and every reply marker matches its label.
import { describe, expect, it } from "vitest";
import { generateTriples } from "../gen-triples";
import { GEN_QUESTION_ENTITIES, generatedLabels, generatedQuestions } from "./gen-questions";

describe("generatedQuestions", () => {
  it("asks about entities the generator writes, by their @en label, two questions each", () => {
    const labels = generatedLabels([7, 15_011]);
    const lines = [...generateTriples(16_000 * 6)];
    for (const [i, name] of labels) expect(lines).toContain(`<http://example.org/gen/e${i}> <http://www.w3.org/2000/01/rdf-schema#label> "${name}"@en .`);
    const qs = generatedQuestions();
    expect(qs).toHaveLength(GEN_QUESTION_ENTITIES.length * 2);
    expect(new Set(qs.map((q) => q.id)).size).toBe(qs.length);
  });

  it("the vertex marker picks the entity's own label, not '<name> (city)' or a longer name", () => {
    const [q] = generatedQuestions([7]);
    const name = generatedLabels([7]).get(7)!;
    const marker = (q.replies.vertex![0] as { choices: Record<string, string> }).choices[name];
    const re = new RegExp(marker.slice(1), "i");
    expect(re.test(`${name}`)).toBe(true);
    expect(re.test(`${name} — type: Person`)).toBe(true);
    expect(re.test(`${name} (person)`)).toBe(false);
    expect(re.test(`${name}son Kalo`)).toBe(false);
  });
});
