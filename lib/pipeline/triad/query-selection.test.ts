import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { createTestContext } from "@/test/fixtures/kg/harness";
import { musicKg } from "@/test/fixtures/kg/triad-harness";
import { validateGeneralist } from "./generalist";
import { querySelectionAgent } from "./query-selection";
import type { CandidateQuery, ExecutedCandidate, TriadState } from "./state";

const template = (text: string) => {
  const g = validateGeneralist({ triplets: [], slots: { e0: "x", r0: "y" }, template: text, answer_type: "entities" });
  if (!g.ok) throw new Error(g.reason);
  return g.value;
};
const c = (id: number, rank = id): CandidateQuery => ({ id, rank, sparql: `ASK { <http://x/${id}> ?p ?o }`, fillers: { e0: { kind: "iri", iri: `http://x/${id}`, label: `X${id}` } } });

function run(kind: "ASK" | "SELECT", executed: ExecutedCandidate[], script = {}) {
  const llm = createScriptedLlm(script);
  const t = createTestContext({ kg: musicKg(), llm: llm.gateway });
  const state: TriadState = {
    question: "q",
    dialogue: [],
    config: DEFAULT_CONFIG,
    attempt: 1,
    misses: [],
    generalist: template(kind === "ASK" ? "ASK { <e0> <r0> ?o }" : "SELECT ?o WHERE { <e0> <r0> ?o }"),
    candidates: executed.map((e) => c(e.id)),
    executed,
  };
  return { llm, patch: querySelectionAgent(state, t.ctx) };
}

describe("querySelectionAgent", () => {
  it("answers an ASK with the best-ranked candidate that holds, else with the best one that ran (no), without a model call", async () => {
    const yes = run("ASK", [{ id: 1, rows: 0, ms: 1, boolean: false }, { id: 2, rows: 1, ms: 1, boolean: true }]);
    expect((await yes.patch).chosen?.id).toBe(2);
    const no = run("ASK", [{ id: 1, rows: 0, ms: 1, error: "timeout" }, { id: 2, rows: 0, ms: 1, boolean: false }]);
    expect((await no.patch).chosen?.id).toBe(2);
    expect(no.llm.calls).toHaveLength(0);
  });

  it("needs no model call when the candidates with rows all returned the same rows, and misses when none returned any", async () => {
    const same = run("SELECT", [{ id: 1, rows: 0, ms: 1 }, { id: 2, rows: 3, ms: 1, signature: "s" }, { id: 3, rows: 3, ms: 1, signature: "s" }]);
    expect((await same.patch).chosen?.id).toBe(2);
    const none = run("SELECT", [{ id: 1, rows: 0, ms: 1 }, { id: 2, rows: 0, ms: 1, error: "boom" }]);
    expect(await none.patch).toEqual({ miss: "2 candidate queries ran, none returned rows (1 failed)" });
  });

  it("lets the D-agent choose among different results, and retries a choice that is not listed", async () => {
    const r = run("SELECT", [{ id: 1, rows: 2, ms: 1, signature: "a", preview: ["v1"] }, { id: 2, rows: 1, ms: 1, signature: "b", preview: ["v2"] }], { decider: [{ json: { choice: 7 } }, { json: { choice: "2" } }] });
    expect((await r.patch).chosen?.id).toBe(2);
    expect(r.llm.calls[1].messages.at(-1)?.text).toContain('"choice" must be one of the candidate numbers 1, 2');
    expect(r.llm.calls[0].messages.at(-1)?.text).toContain('Candidate 1\nFillers: {"e0":"X1"}\nReturned: 2 rows, e.g. "v1"');
  });
});
