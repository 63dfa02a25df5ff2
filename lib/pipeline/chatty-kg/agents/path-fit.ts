// Two-hop chains between a linked vertex and an unknown of a linked class (⟨?x r1 ?m⟩ ⟨?m r2 V⟩, ?x a C): the
// predicate pairs that actually connect C's instances to V through one middle node. The relation phrases of such a
// chain are often vague ("linked to", "associated with") and rank the right predicates below the top k, while the KG
// holds only a few paths between the two ends: those are the candidates worth ranking.
import type * as Sparql from "sparqljs";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { bgp, filter, namedNode, operation, selectQuery, stringify, triple, union, variable } from "@/lib/pipeline/common/sparql-ast";
import type { LinkedClass, QirTriple } from "../state";
import { classPattern } from "./binding-sources";

/** Predicate pairs read per chain (the middle step's ends are few; more would be a hub). */
export const PATH_FIT_LIMIT = 200;

interface Chain {
  /** the triple with the vertex end, and the one with the class end */
  vertexTriple: number;
  classTriple: number;
  vertex: string;
  cls: LinkedClass;
}

/** Chains ⟨?x r1 ?m⟩ ⟨?m r2 V⟩ of the QIR: V a linked vertex, ?m an unknown in just these two triples, ?x of a linked class. */
export function twoHopChains(triples: QirTriple[], vertexOf: (term: string) => string | undefined, isVar: (term: string) => boolean, classes: Record<string, LinkedClass>): Chain[] {
  const chains: Chain[] = [];
  triples.forEach((t, i) => {
    const vertex = vertexOf(t.subject) ?? vertexOf(t.object);
    const middle = vertexOf(t.subject) ? t.object : t.subject;
    if (!vertex || !isVar(middle) || classes[middle]) return;
    const others = triples.flatMap((u, j) => (j !== i && (u.subject === middle || u.object === middle) ? [j] : []));
    if (others.length !== 1) return;
    const u = triples[others[0]];
    const far = u.subject === middle ? u.object : u.subject;
    const cls = isVar(far) ? classes[far] : undefined;
    if (cls) chains.push({ vertexTriple: i, classTriple: others[0], vertex, cls });
  });
  return chains;
}

/**
 * Per triple index, the predicates (IRIs) some two-hop path between the chain's class and vertex uses at that step;
 * a chain the KG does not connect adds nothing (the triples keep every predicate found around their ends).
 */
export async function twoHopFits(ctx: AgentContext, chains: Chain[], typePredicate: string): Promise<Map<number, Set<string>>> {
  const fits = new Map<number, Set<string>>();
  for (const c of chains) {
    const x = variable("x");
    const m = variable("m");
    const v = namedNode(c.vertex);
    const where: Sparql.Pattern[] = [
      union([bgp([triple(m, variable("p2"), v)])], [bgp([triple(v, variable("p2"), m)])]),
      filter(operation("isiri", m)),
      union([bgp([triple(x, variable("p1"), m)])], [bgp([triple(m, variable("p1"), x)])]),
      bgp([classPattern(x, c.cls, typePredicate)]),
    ];
    const r = await ctx.sparql("relation-linking", "two-hop paths from the unknown's class to a linked vertex", stringify(selectQuery(["p1", "p2"], where, { limit: PATH_FIT_LIMIT })));
    if (r.kind !== "SELECT" || r.results.bindings.length === 0) continue;
    const add = (i: number, p: string | undefined) => {
      if (!p) return;
      const set = fits.get(i) ?? new Set<string>();
      set.add(p);
      fits.set(i, set);
    };
    for (const b of r.results.bindings) {
      add(c.vertexTriple, b.p2?.value);
      add(c.classTriple, b.p1?.value);
    }
  }
  return fits;
}
