import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import { MUSIC_ID, MUSIC_VOCAB, musicKg } from "@/test/fixtures/kg/triad-harness";
import { validateGeneralist } from "./generalist";
import { relationSelectionAgent } from "./relation-selection";
import type { TriadState } from "./state";

function state(): TriadState {
  const g = validateGeneralist({ triplets: [], slots: { e0: "Mira Solberg", r0: "released" }, template: "SELECT ?a WHERE { <e0> <r0> ?a }", answer_type: "entities" });
  if (!g.ok) throw new Error(g.reason);
  return {
    question: "Which albums did Mira Solberg release?",
    dialogue: [],
    config: DEFAULT_CONFIG,
    attempt: 1,
    misses: [],
    generalist: g.value,
    entities: { e0: { found: 1, auto: true, chosen: [{ kind: "iri", iri: `${MUSIC_ID}artist/Mira%20Solberg`, label: "Mira Solberg" }] } },
  };
}

describe("relationSelectionAgent", () => {
  it("shows the slot's triple and the predicates found around the entity, ranked, reversed ones marked", async () => {
    const llm = createScriptedLlm({ decider: [{ json: { choices: { r0: [] } } }] });
    const { ctx } = createTestContext({ kg: musicKg(), llm: llm.gateway });
    const patch = await relationSelectionAgent(state(), ctx);
    const prompt = llm.calls[0].messages.at(-1)?.text ?? "";
    expect(prompt).toContain('Slot r0: "released" — in the template: "Mira Solberg" <r0> ?a');
    expect(prompt).toMatch(/^\d+\. performer \(reversed\)$/m);
    expect(prompt).toMatch(/^\d+\. headliner \(reversed\)$/m);
    // an empty choice: no predicate carries the relation, the attempt ends without a KG answer
    expect(patch.miss).toMatch(/^no KG predicate fits "released" \(<r0>\) \(\d+ found\)$/);
  });

  it("keeps the D-agent's choice, best first, as fillers with their direction", async () => {
    const llm = createScriptedLlm({
      decider: [(m) => ({ json: { choices: { r0: [Number(/^(\d+)\. performer \(reversed\)$/m.exec(m.at(-1)?.text ?? "")?.[1])] } } })],
    });
    const { ctx } = createTestContext({ kg: musicKg(), llm: llm.gateway });
    const patch = await relationSelectionAgent(state(), ctx);
    expect(patch.relations?.r0.chosen).toEqual([{ iri: `${MUSIC_VOCAB}performer`, label: "performer", reversed: true }]);
  });
});
