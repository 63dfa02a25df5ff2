import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { bestCombinations, candidateQueriesAgent } from "./candidates";
import { validateGeneralist } from "./generalist";
import type { TriadState } from "./state";

const EX = "http://example.org/x/";

describe("bestCombinations", () => {
  it("lists every combination once, best ranked (lowest rank sum) first, up to the cap", () => {
    expect(bestCombinations([2, 2], 10)).toEqual([[0, 0], [1, 0], [0, 1], [1, 1]]);
    expect(bestCombinations([3, 2, 2], 4).map((c) => c.reduce((a, b) => a + b))).toEqual([0, 1, 1, 1]);
    expect(bestCombinations([2, 0], 10)).toEqual([]);
    expect(bestCombinations([], 5)).toEqual([[]]);
  });
});

describe("candidateQueriesAgent", () => {
  const g = validateGeneralist({ triplets: [], slots: { e0: "Aurora", r0: "performer" }, template: "SELECT ?a WHERE { ?a <r0> <e0> }", answer_type: "entities" });
  if (!g.ok) throw new Error(g.reason);
  const state = (queryNum: number): TriadState => ({
    question: "q",
    dialogue: [],
    config: { ...DEFAULT_CONFIG, queryNum },
    attempt: 1,
    misses: [],
    generalist: g.value,
    entities: { e0: { found: 2, auto: false, chosen: [{ kind: "iri", iri: `${EX}a1`, label: "Aurora" }, { kind: "literal", value: "Aurora" }] } },
    relations: { r0: { found: 3, auto: false, chosen: [{ iri: `${EX}performer`, label: "performer", reversed: false }, { iri: `${EX}performer`, label: "performer", reversed: true }] } },
  });

  it("fills the template with every combination of the chosen fillers, capped at query_num, best first", () => {
    const { candidates } = candidateQueriesAgent(state(40), 100);
    expect(candidates?.map((c) => c.rank)).toEqual([0, 1, 1, 2]);
    expect(candidates?.[0].sparql).toBe(`SELECT ?a WHERE { ?a <${EX}performer> <${EX}a1>. }\nLIMIT 100`);
    expect(candidates?.[3].sparql).toContain(`"Aurora" <${EX}performer> ?a`);
    expect(candidateQueriesAgent(state(3), 100).candidates).toHaveLength(3);
  });

  it("drops a combination whose filler cannot be written in a query, and misses when none is left", () => {
    const s = state(40);
    s.entities = { e0: { found: 1, auto: true, chosen: [{ kind: "iri", iri: "http://bad> }", label: "bad" }] } };
    expect(candidateQueriesAgent(s, 100)).toEqual({ candidates: [], miss: "no candidate query could be built from the chosen fillers" });
  });
});
