// Relation candidates for one relation slot (Triad §3.2: a one-order traversal from the candidate entities): the
// predicates that connect, in the KG, what the slot's triple connects in the template — starting from the chosen
// entity fillers (or literals, IRIs) and following the relations already chosen; each found predicate records whether
// it runs as the template wrote the triple or reversed.
import type * as Sparql from "sparqljs";
import { isSafeIri } from "@/lib/kg/escape";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { literal, namedNode, stringify, union, variable } from "@/lib/pipeline/common/sparql-ast";
import type { EntityFiller, RelationFiller } from "./state";
import type { TNode, TTriple } from "./template-triples";

/** Rows of a discovery query (predicate, direction). */
export const DISCOVERY_LIMIT = 500;
/** Rows of the last-resort query listing predicates anywhere in the KG. */
export const GLOBAL_LIMIT = 1000;
/** Steps from an anchor to the slot's triple through relations already chosen. */
const MAX_CHAIN = 4;

export interface Known {
  entities: Record<string, EntityFiller[]>;
  relations: Record<string, RelationFiller[]>;
  /** variables the template pins down by a text FILTER (text-filters.ts): anchors too */
  textFilters?: Record<string, Sparql.FilterPattern[]>;
}

export interface Found {
  iri: string;
  reversed: boolean;
  /** a schema parent of found predicates: it and its sub-properties */
  covers?: string[];
}

type Edge = TTriple;

const isAnchor = (n: TNode, known: Known) =>
  n.kind === "iri" || n.kind === "literal" || (n.kind === "slot" && (known.entities[n.id]?.length ?? 0) > 0) || (n.kind === "var" && (known.textFilters?.[n.name]?.length ?? 0) > 0);

/** Edges a chain may follow: fixed predicates, variable predicates and relation slots already chosen. */
function usable(t: TTriple, known: Known): boolean {
  return t.p.kind !== "slot" || (known.relations[t.p.id]?.length ?? 0) > 0;
}

/** The edges from variable `start` to the nearest anchor (breadth first), or undefined when none is reachable. */
export function chainTo(start: string, triples: TTriple[], known: Known, skip: TTriple): Edge[] | undefined {
  const edges = triples.filter((t) => t !== skip && usable(t, known));
  const queue: { name: string; path: Edge[] }[] = [{ name: start, path: [] }];
  const seen = new Set([start]);
  while (queue.length) {
    const { name, path } = queue.shift()!;
    if (path.length >= MAX_CHAIN) continue;
    for (const e of edges) {
      const ends = [e.s, e.o];
      if (!ends.some((n) => n.kind === "var" && n.name === name)) continue;
      const other = e.s.kind === "var" && e.s.name === name ? e.o : e.s;
      if (isAnchor(other, known)) return [...path, e];
      if (other.kind === "var" && !seen.has(other.name)) {
        seen.add(other.name);
        queue.push({ name: other.name, path: [...path, e] });
      }
    }
  }
  return undefined;
}

/** Whether an end of the triple is anchored (an anchor itself, or a variable with a chain to one). */
export function anchoredEnds(t: TTriple, triples: TTriple[], known: Known): { end: "s" | "o"; chain: Edge[] }[] {
  const out: { end: "s" | "o"; chain: Edge[] }[] = [];
  for (const end of ["s", "o"] as const) {
    const n = t[end];
    if (isAnchor(n, known)) out.push({ end, chain: [] });
    else if (n.kind === "var") {
      const chain = chainTo(n.name, triples, known, t);
      if (chain) out.push({ end, chain });
    }
  }
  return out;
}

type PTerm = Sparql.Term;

class QueryBuilder {
  patterns: Sparql.Pattern[] = [];
  private valued = new Set<string>();
  private fresh = 0;
  constructor(private known: Known) {}

  freshVar(): Sparql.VariableTerm {
    return variable(`triad_free_${++this.fresh}`);
  }

  /** The term for a node; an entity slot becomes a variable bound by VALUES to its fillers. */
  term(n: TNode): PTerm {
    if (n.kind === "var") {
      const filters = this.known.textFilters?.[n.name] ?? [];
      // a variable pinned down by text brings its FILTER along (once)
      if (filters.length && !this.valued.has(`?${n.name}`)) {
        this.valued.add(`?${n.name}`);
        this.patterns.push(...filters);
      }
      return variable(n.name);
    }
    if (n.kind === "iri") return namedNode(n.iri);
    if (n.kind === "literal") return n.term;
    const name = `triad_${n.id}`;
    if (!this.valued.has(name)) {
      this.valued.add(name);
      const values = (this.known.entities[n.id] ?? []).map((f) => ({ [`?${name}`]: f.kind === "iri" ? namedNode(f.iri) : literal(f.value) }));
      this.patterns.push({ type: "values", values } as unknown as Sparql.ValuesPattern);
    }
    return variable(name);
  }

  /** A chain edge: a fixed or variable predicate as is; a chosen relation slot by its fillers, in their directions. */
  edge(e: Edge): void {
    const s = this.term(e.s);
    const o = this.term(e.o);
    if (e.p.kind !== "slot") {
      const p = e.p.kind === "iri" ? namedNode(e.p.iri) : variable(e.p.name);
      this.patterns.push({ type: "bgp", triples: [{ subject: s, predicate: p, object: o } as Sparql.Triple] });
      return;
    }
    const fillers = this.known.relations[e.p.id] ?? [];
    const name = `triad_p_${++this.fresh}`;
    const group = (list: RelationFiller[], from: PTerm, to: PTerm): Sparql.Pattern[] => [
      { type: "values", values: [...new Set(list.flatMap((f) => f.covers ?? [f.iri]))].map((iri) => ({ [`?${name}`]: namedNode(iri) })) } as unknown as Sparql.ValuesPattern,
      { type: "bgp", triples: [{ subject: from, predicate: variable(name), object: to } as Sparql.Triple] },
    ];
    const forward = fillers.filter((f) => !f.reversed);
    const backward = e.o.kind === "literal" ? [] : fillers.filter((f) => f.reversed);
    const groups = [...(forward.length ? [group(forward, s, o)] : []), ...(backward.length ? [group(backward, o, s)] : [])];
    this.patterns.push(...(groups.length === 1 ? groups[0] : [union(...groups)]));
  }

  /** SELECT DISTINCT ?r ?dir for the slot's triple between `s` and `o` (in the template's direction: "out"). */
  target(s: PTerm, o: PTerm, sLiteral: boolean, oLiteral: boolean): string {
    const r = variable("triad_r");
    const dir = variable("triad_dir");
    const branch = (from: PTerm, to: PTerm, d: string): Sparql.Pattern[] => [
      { type: "bgp", triples: [{ subject: from, predicate: r, object: to } as Sparql.Triple] },
      { type: "bind", variable: dir, expression: literal(d) } as unknown as Sparql.BindPattern,
    ];
    const branches = [...(sLiteral ? [] : [branch(s, o, "out")]), ...(oLiteral ? [] : [branch(o, s, "in")])];
    const where = [...this.patterns, ...(branches.length === 1 ? branches[0] : [union(...branches)])];
    return stringify({ type: "query", queryType: "SELECT", prefixes: {}, distinct: true, variables: [r, dir], where, limit: DISCOVERY_LIMIT } as Sparql.SelectQuery);
  }
}

/** The discovery query for one triple of the slot, anchored at the given ends (other ends left free). */
export function discoveryQuery(t: TTriple, anchored: { end: "s" | "o"; chain: Edge[] }[], known: Known): string {
  const b = new QueryBuilder(known);
  for (const a of anchored) for (const e of a.chain) b.edge(e);
  const isAnchored = (end: "s" | "o") => anchored.some((a) => a.end === end);
  // an end that is not anchored here (a free variable, or the other anchor when exploring from one end) is left open
  const s = isAnchored("s") ? b.term(t.s) : b.freshVar();
  const o = isAnchored("o") ? b.term(t.o) : b.freshVar();
  const isLit = (end: "s" | "o") => isAnchored(end) && t[end].kind === "literal";
  return b.target(s, o, isLit("s"), isLit("o"));
}

/** Predicates anywhere in the KG (a slot nothing anchors, e.g. "which X has the most Y" without a named thing). */
export function globalQuery(): string {
  const r = variable("triad_r");
  return stringify({
    type: "query",
    queryType: "SELECT",
    prefixes: {},
    distinct: true,
    variables: [r],
    where: [{ type: "bgp", triples: [{ subject: variable("s"), predicate: r, object: variable("o") } as Sparql.Triple] }],
    limit: GLOBAL_LIMIT,
  } as Sparql.SelectQuery);
}

/** The predicates a discovery query finds; `failed` when it did not run to the end (timed out, cut by the budget). */
async function runQuery(ctx: AgentContext, purpose: string, query: string): Promise<{ found: Found[]; failed: boolean }> {
  try {
    const r = await ctx.sparql("relation-linking", purpose, query);
    if (r.kind !== "SELECT") return { found: [], failed: false };
    const found = r.results.bindings.flatMap((b) => (b.triad_r?.type === "uri" && isSafeIri(b.triad_r.value) ? [{ iri: b.triad_r.value, reversed: b.triad_dir?.value === "in" }] : []));
    return { found, failed: false };
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return { found: [], failed: true }; // a timed-out discovery finds nothing; the trace shows the error
  }
}

const run = async (ctx: AgentContext, purpose: string, query: string) => (await runQuery(ctx, purpose, query)).found;

const pinnedByText = (n: TNode, known: Known) => n.kind === "var" && (known.textFilters?.[n.name]?.length ?? 0) > 0;

/**
 * The predicates a relation slot can take: for each of its triples, first with every anchored end constrained; when
 * that finds nothing and both ends were anchored, from each end alone (the KG may not hold the asked fact, but the
 * edge the question means still starts there); a slot nothing anchors gets the KG's predicates.
 */
export async function discoverRelations(slot: string, triples: TTriple[], known: Known, ctx: AgentContext): Promise<{ found: Found[]; anchored: boolean }> {
  const own = triples.filter((t) => t.p.kind === "slot" && t.p.id === slot);
  const found = new Map<string, Found>();
  let anchored = false;
  for (const t of own) {
    const ends = anchoredEnds(t, triples, known);
    if (ends.length === 0) continue;
    anchored = true;
    const first = await runQuery(ctx, `predicates for <${slot}> between its anchored ends`, discoveryQuery(t, ends, known));
    // a text FILTER scans every value of the KG: on a big endpoint it may not finish in time, and then the slot is
    // discovered as if no text pinned it (its other anchors, else the KG's predicates) rather than four timeouts long
    if (first.failed && known.textFilters && (pinnedByText(t.s, known) || pinnedByText(t.o, known) || ends.some((e) => e.chain.some((c) => pinnedByText(c.s, known) || pinnedByText(c.o, known)))))
      return discoverRelations(slot, triples, { ...known, textFilters: undefined }, ctx);
    let rows = first.found;
    if (rows.length === 0 && ends.length === 2) {
      const each = await Promise.all(ends.map((e) => run(ctx, `predicates for <${slot}> around its ${e.end === "s" ? "subject" : "object"}`, discoveryQuery(t, [e], known))));
      rows = each.flat();
    }
    for (const f of rows) found.set(`${f.iri} ${f.reversed}`, f);
  }
  if (!anchored) for (const f of await run(ctx, `predicates anywhere in the KG for <${slot}> (nothing anchors it)`, globalQuery())) found.set(`${f.iri} false`, f);
  return { found: [...found.values()], anchored };
}
