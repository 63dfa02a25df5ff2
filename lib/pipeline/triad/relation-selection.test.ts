import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { KnowledgeGraph, QueryResult } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createFixtureKg, createTestContext } from "@/test/fixtures/kg/harness";
import { MUSIC_ID, MUSIC_VOCAB, musicKg } from "@/test/fixtures/kg/triad-harness";
import { validateGeneralist } from "./generalist";
import { MAX_RELATION_OPTIONS, relationSelectionAgent } from "./relation-selection";
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

  it("shows every predicate tied at the cut-off, in the same order whatever order the KG lists them in", async () => {
    // one entity with 40 predicates whose names share nothing with "released": all tie, more than the 30 shown
    const ex = "http://example.org/ties/";
    const ttl = [`<${ex}mira> <http://www.w3.org/2000/01/rdf-schema#label> "Mira Solberg" .`, ...Array.from({ length: 40 }, (_, i) => `<${ex}mira> <${ex}zq${String(i).padStart(2, "0")}> "v${i}" .`)];
    const file = path.join(mkdtempSync(path.join(tmpdir(), "ties-")), "ties.ttl");
    writeFileSync(file, ttl.join("\n"));
    const g = validateGeneralist({ triplets: [], slots: { e0: "Mira Solberg", r0: "released" }, template: "SELECT ?a WHERE { <e0> <r0> ?a }", answer_type: "entities" });
    if (!g.ok) throw new Error(g.reason);
    const s: TriadState = { ...state(), generalist: g.value, entities: { e0: { found: 1, auto: true, chosen: [{ kind: "iri", iri: `${ex}mira`, label: "Mira Solberg" }] } } };
    // the same KG, once as the store lists rows and once with every result's rows reversed (another engine's order)
    const reversed = (kg: KnowledgeGraph): KnowledgeGraph => ({
      ...kg,
      async query(q, o) {
        const r: QueryResult = await kg.query(q, o);
        return r.kind === "SELECT" ? { ...r, results: { bindings: [...r.results.bindings].reverse() } } : r;
      },
    });
    const prompts: string[] = [];
    for (const kg of [createFixtureKg(file), reversed(createFixtureKg(file))]) {
      const llm = createScriptedLlm({ decider: [{ json: { choices: { r0: [] } } }] });
      await relationSelectionAgent(s, createTestContext({ kg, llm: llm.gateway }).ctx);
      prompts.push(llm.calls[0].messages.at(-1)?.text ?? "");
    }
    const options = (p: string) => [...p.matchAll(/^\d+\. (zq\d+)/gm)].map((m) => m[1]);
    expect(options(prompts[0]).length).toBeGreaterThan(MAX_RELATION_OPTIONS);
    expect(options(prompts[0])).toContain("zq39");
    expect(options(prompts[1])).toEqual(options(prompts[0]));
  });
});
