// Q' for the selected predicates and the order it runs in (pure; see query-planner.ts for the rules): candidates
// grouped by predicate set, then by wiring, preferred first, in tiers.
import type { CandidateQuery } from "../state";

/**
 * Q' for the selected predicates P'. The paper's rule Pred(ψ) ∩ P' ≠ ∅ is right for one-triple queries, but for a
 * multi-triple query it would also run "member of ∧ <a rejected predicate>" and merge its junk rows into the answer
 * (CK25 q7: 190 items instead of 1). So the queries whose predicates were ALL selected (Pred(ψ) ⊆ P') are run; only
 * when no candidate qualifies (the model kept predicates of one relation only) does the paper's rule apply.
 */
export function selectCandidates(candidates: CandidateQuery[], selectedPredicates: string[]): CandidateQuery[] {
  const selected = new Set(selectedPredicates);
  const all = candidates.filter((c) => c.predicates.every((p) => selected.has(p)));
  return all.length > 0 ? all : candidates.filter((c) => c.predicates.some((p) => selected.has(p)));
}

/** One wiring: the candidates of one graph pattern (a COUNT and its plain SELECT), run together. */
export type Wiring = CandidateQuery[];
/** The wirings of one predicate set, preferred first (see the file comment). */
export interface WiringGroup {
  predicates: string[];
  wirings: Wiring[];
}

const setKey = (c: CandidateQuery) => [...new Set(c.predicates)].sort().join(" ");

function isStrictSubset(a: string[], b: string[]): boolean {
  const inB = new Set(b);
  return a.length < b.length && a.every((x) => inB.has(x));
}

/** Wiring order: fewest triples against the QIR's direction, then best mean similarity, then candidate order. */
function compareWirings(a: Wiring, b: Wiring): number {
  const reversed = (w: Wiring) => Math.min(...w.map((c) => c.reversed ?? 0));
  const score = (w: Wiring) => Math.max(...w.map((c) => c.score));
  const id = (w: Wiring) => Math.min(...w.map((c) => c.id));
  return reversed(a) - reversed(b) || score(b) - score(a) || id(a) - id(b);
}

/**
 * Q' as tiers of groups of wirings (see the file comment): tier 1 the groups of maximal predicate sets, tier 2 the
 * groups whose set is a strict subset of another's (only with Pred(ψ) ⊆ P'). Groups keep candidate order.
 */
export function planRuns(candidates: CandidateQuery[], selectedPredicates: string[]): WiringGroup[][] {
  const chosen = selectCandidates(candidates, selectedPredicates);
  const selected = new Set(selectedPredicates);
  const allSelected = chosen.every((c) => c.predicates.every((p) => selected.has(p)));
  const groups = new Map<string, { predicates: string[]; wirings: Map<string, Wiring> }>();
  for (const c of chosen) {
    const key = setKey(c);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { predicates: [...new Set(c.predicates)].sort(), wirings: new Map() }));
    // a candidate without a recorded wiring (older state) is a wiring of its own
    const w = c.wiring ?? `#${c.id}`;
    g.wirings.set(w, [...(g.wirings.get(w) ?? []), c]);
  }
  const list: WiringGroup[] = [...groups.values()].map((g) => ({ predicates: g.predicates, wirings: [...g.wirings.values()].sort(compareWirings) }));
  if (!allSelected) return list.length ? [list] : [];
  const subsumed = (g: WiringGroup) => list.some((o) => isStrictSubset(g.predicates, o.predicates));
  return [list.filter((g) => !subsumed(g)), list.filter(subsumed)].filter((tier) => tier.length > 0);
}
