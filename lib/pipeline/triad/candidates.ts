// D-agent, candidate SPARQLs (Triad §3.2): the template filled with every combination of the chosen fillers, best
// ranked first (sum of each slot's rank), capped at query_num; identical queries are kept once.
import type { CandidateQuery, EntityFiller, RelationFiller, SlotCandidates, TriadState } from "./state";
import { fillTemplate, type SlotFiller } from "./template";

/** Index vectors over `sizes` in order of increasing sum (k-best enumeration), at most `cap` of them. */
export function bestCombinations(sizes: number[], cap: number): number[][] {
  if (sizes.some((n) => n === 0) || cap <= 0) return [];
  const out: number[][] = [];
  const seen = new Set<string>();
  let frontier: number[][] = [sizes.map(() => 0)];
  // why: rank sums grow by one per level, so walking level by level keeps the order without a heap
  while (frontier.length && out.length < cap) {
    const next: number[][] = [];
    for (const combo of frontier) {
      const key = combo.join(",");
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(combo);
      if (out.length >= cap) break;
      combo.forEach((v, i) => {
        if (v + 1 < sizes[i]) next.push(combo.map((x, j) => (j === i ? x + 1 : x)));
      });
    }
    frontier = next;
  }
  return out;
}

const asSlotFiller = (f: EntityFiller | RelationFiller): SlotFiller =>
  "reversed" in f ? { kind: "predicate", iri: f.iri, reversed: f.reversed, ...(f.covers ? { covers: f.covers } : {}) } : f.kind === "iri" ? { kind: "iri", iri: f.iri } : { kind: "literal", value: f.value };

/** `{ candidates }`: the filled queries, or a `miss` when no filling is possible. */
export function candidateQueriesAgent(state: TriadState, rowLimit: number): Partial<TriadState> {
  const g = state.generalist;
  if (!g) return { failure: { stage: "query-generation", code: "internal", message: "No template to fill." } };
  const slots: [string, SlotCandidates<EntityFiller | RelationFiller>][] = [
    ...g.template.entitySlots.map((s) => [s, state.entities?.[s] ?? { found: 0, chosen: [], auto: true }] as [string, SlotCandidates<EntityFiller>]),
    ...g.template.relationSlots.map((s) => [s, state.relations?.[s] ?? { found: 0, chosen: [], auto: true }] as [string, SlotCandidates<RelationFiller>]),
  ];
  const combos = bestCombinations(slots.map(([, c]) => c.chosen.length), state.config.queryNum);
  const candidates: CandidateQuery[] = [];
  const seen = new Set<string>();
  for (const combo of combos) {
    const fillers = Object.fromEntries(slots.map(([slot, c], i) => [slot, c.chosen[combo[i]]]));
    let sparql: string;
    try {
      sparql = fillTemplate(g.template, Object.fromEntries(Object.entries(fillers).map(([s, f]) => [s, asSlotFiller(f)])), rowLimit);
    } catch {
      continue; // a filler that cannot be written in a query (an unsafe IRI from the KG) drops this combination only
    }
    if (seen.has(sparql)) continue;
    seen.add(sparql);
    candidates.push({ id: candidates.length + 1, sparql, fillers, rank: combo.reduce((a, b) => a + b, 0) });
  }
  if (candidates.length === 0) return { candidates, miss: "no candidate query could be built from the chosen fillers" };
  return { candidates };
}
