import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import { MUSIC_ID, musicKg, optionNumbers } from "@/test/fixtures/kg/triad-harness";
import { entitySelectionAgent, literalAllowed } from "./entity-selection";
import { validateGeneralist } from "./generalist";
import type { TriadState } from "./state";

const generalist = (template: string, slots: Record<string, string>) => {
  const g = validateGeneralist({ triplets: [], slots, template, answer_type: "entities" });
  if (!g.ok) throw new Error(g.reason);
  return g.value;
};

function run(template: string, slots: Record<string, string>, script = {}, k = 2) {
  const llm = createScriptedLlm(script);
  const t = createTestContext({ kg: musicKg(), llm: llm.gateway, config: { triadEntityCandidates: k } });
  const state: TriadState = { question: "q", dialogue: [], config: DEFAULT_CONFIG, attempt: 1, misses: [], generalist: generalist(template, slots) };
  return { llm, patch: entitySelectionAgent(state, t.ctx) };
}

describe("literalAllowed", () => {
  it("allows a literal filler in an object position or a FILTER, never as a subject or a class", () => {
    const g = generalist('SELECT ?x WHERE { <e0> <r0> ?x . ?x a <e1> ; <r1> <e2> FILTER(?x != <e3>) }', { e0: "a", e1: "b", e2: "c", e3: "d", r0: "p", r1: "q" });
    expect(["e0", "e1", "e2", "e3"].map((s) => literalAllowed(g, s))).toEqual([false, false, true, true]);
  });
});

describe("entitySelectionAgent", () => {
  it("asks the D-agent to keep up to K of the label matches, same-named ones with type hints", async () => {
    const { llm, patch } = run("SELECT ?x WHERE { ?x <r0> <e0> }", { e0: "Aurora", r0: "venue" }, {
      decider: [(m: Parameters<typeof optionNumbers>[0]) => ({ json: { choices: { e0: optionNumbers(m, "e0", (t) => t.startsWith("Aurora Hall")) } } })],
    });
    const p = await patch;
    expect(p.miss).toBeUndefined();
    expect(p.entities?.e0.chosen).toEqual([{ kind: "iri", iri: `${MUSIC_ID}venue-Aurora-Hall`, label: "Aurora Hall" }]);
    expect(llm.calls[0].messages.at(-1)?.text).toMatch(/\d+\. Aurora — type: album/);
  });

  it("offers the mention as a literal where no vertex bears the name, and misses when nothing at all can fill a subject", async () => {
    const literal = await run("SELECT ?x WHERE { ?x <r0> <e0> }", { e0: "Lemuria", r0: "origin" }).patch;
    expect(literal.entities?.e0).toEqual({ found: 0, chosen: [{ kind: "literal", value: "Lemuria" }], auto: true });
    const none = await run("SELECT ?x WHERE { <e0> <r0> ?x }", { e0: "Lemuria", r0: "origin" }).patch;
    expect(none.miss).toBe('"Lemuria" (<e0>): not found in the KG');
  });

  it("takes the candidates without a model call when there are no more than K", async () => {
    const { llm, patch } = run("SELECT ?x WHERE { ?x <r0> <e0> }", { e0: "Lumen Lane", r0: "label" }, {}, 5);
    expect((await patch).entities?.e0.auto).toBe(true);
    expect(llm.calls).toHaveLength(0);
  });
});
