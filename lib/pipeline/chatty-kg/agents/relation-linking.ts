// Relation linking (paper §5.1.3): predicates around each linked vertex, both directions, ranked by similarity to the relation phrase.
//
// Decisions (documented here, not in state.ts):
// - relationPredicates is keyed by relation phrase (the paper's RelToPred). Each entry records the end of the triple it
//   was found around in `vertex`: the vertex IRI, or — for a triple between two unknowns — the QIR variable ("?film")
//   whose candidate bindings were explored (two-hop). `direction` is relative to that end. The query generator matches
//   entries to triple ends by this field, so two triples sharing a phrase do not mix.
// - Entity–entity triples first ask for predicates directly between the two vertices (both directions); only if none
//   exist do they fall back to the predicates around the subject (the ASK then truthfully answers "no").
// - Unknown–unknown triples: predicates around the candidate bindings of the shared variable, found through the
//   neighbouring triple's top predicates (SELECT DISTINCT ?p WHERE { <v> ?p1 ?x . ?x ?p ?o } LIMIT 200).
// - Bookkeeping predicates are dropped: label/description predicates of the profile, owl:sameAs, rdfs:seeAlso,
//   foaf:isPrimaryTopicOf, prov:*, wikiPage*. Type predicates (rdf:type, wdt:P31) are kept only when the relation
//   phrase asks for a type ("type", "kind", "class", "is a", "instance of", …) or when they directly link two
//   entities of the question ("Is X a film?"): otherwise every vertex's rdf:type would crowd the top k.
import type * as Sparql from "sparqljs";
import { isSafeIri } from "@/lib/kg/escape";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { LinkedVertex, Qir, RankedPredicate, StageFailure } from "../state";
import { bgp, namedNode, selectQuery, stringify, triple, union, valuesOf, variable } from "@/lib/pipeline/common/sparql-ast";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import { isBookkeeping } from "@/lib/pipeline/common/bookkeeping";

/** LIMIT of the one-hop predicate queries (hub vertices have thousands of edges). */
export const ONE_HOP_LIMIT = 500;
/** LIMIT of the two-hop predicate queries. */
export const TWO_HOP_LIMIT = 200;

const TYPE_PHRASE = /\b(types?|kinds?|class(es)?|category|categories|instance|is an?|are an?|was an?|sort of)\b/i;

export type RelationLinkingResult =
  | { ok: true; relationPredicates: Record<string, RankedPredicate[]> }
  | { ok: false; failure: StageFailure };

type End = { kind: "vertex"; iri: string; term: string } | { kind: "var"; term: string } | { kind: "none"; term: string };

interface Found {
  iri: string;
  direction: "out" | "in";
  /** found directly between the two entities of the triple */
  direct?: boolean;
}

export function isVariable(term: string, qir: Pick<Qir, "unknowns">): boolean {
  return term.startsWith("?") || qir.unknowns.includes(term);
}

function fail(message: string): RelationLinkingResult {
  return { ok: false, failure: { stage: "relation-linking", code: "pipeline_failed", message } };
}

export async function linkRelations(qir: Qir, vertices: Record<string, LinkedVertex>, ctx: AgentContext): Promise<RelationLinkingResult> {
  if (ctx.similarity.warning) ctx.emit({ type: "warning", stage: "relation-linking", message: ctx.similarity.warning });
  const endOf = (term: string): End => {
    const v = vertices[term];
    if (v) return { kind: "vertex", iri: v.iri, term };
    return isVariable(term, qir) ? { kind: "var", term } : { kind: "none", term };
  };
  const oneHop = new Map<string, Promise<Found[]>>();
  const around = (iri: string) => {
    let p = oneHop.get(iri);
    if (!p) oneHop.set(iri, (p = predicatesAround(ctx, iri)));
    return p;
  };
  const labels = new Map<string, string>();
  // per triple index: ranked predicates (top k per anchored end)
  const perTriple = new Map<number, RankedPredicate[]>();

  // Pass 1: triples with a linked vertex at one or both ends.
  const firstPass = qir.triples.map(async (t, i) => {
    const s = endOf(t.subject);
    const o = endOf(t.object);
    const groups: { anchor: string; found: Found[] }[] = [];
    if (s.kind === "vertex" && o.kind === "vertex") {
      const direct = await predicatesBetween(ctx, s.iri, o.iri);
      groups.push({ anchor: s.iri, found: direct.length ? direct : await around(s.iri) });
    } else if (s.kind === "vertex" || o.kind === "vertex") {
      const v = (s.kind === "vertex" ? s : o) as Extract<End, { kind: "vertex" }>;
      groups.push({ anchor: v.iri, found: await around(v.iri) });
    } else return;
    return { i, groups };
  });
  const pass1 = (await Promise.all(firstPass)).filter((x) => x !== undefined);
  await addLabels(ctx, labels, pass1.flatMap((x) => x.groups.flatMap((g) => g.found.map((f) => f.iri))));
  for (const { i, groups } of pass1) {
    const ranked: RankedPredicate[] = [];
    for (const g of groups) ranked.push(...(await rank(ctx, qir.triples[i].relation, g.anchor, g.found, labels)));
    perTriple.set(i, ranked);
  }

  // Pass 2 (repeated for chains): triples between two unknowns, explored from a neighbour that is already linked.
  for (let round = 0; round < qir.triples.length; round++) {
    const todo = qir.triples
      .map((t, i) => ({ t, i }))
      .filter(({ t, i }) => !perTriple.has(i) && endOf(t.subject).kind === "var" && endOf(t.object).kind === "var");
    if (todo.length === 0) break;
    let progressed = false;
    for (const { t, i } of todo) {
      const hop = findNeighbour(qir, perTriple, i, endOf);
      if (!hop) continue;
      const found = await predicatesTwoHops(ctx, hop.bindings);
      await addLabels(ctx, labels, found.map((f) => f.iri));
      perTriple.set(i, await rank(ctx, t.relation, hop.variable, found, labels));
      progressed = true;
    }
    if (!progressed) break;
  }

  const relationPredicates: Record<string, RankedPredicate[]> = {};
  for (const [i, t] of qir.triples.entries()) {
    const ranked = perTriple.get(i);
    if (!ranked) return fail(`Could not link the relation "${t.relation}": neither ${JSON.stringify(t.subject)} nor ${JSON.stringify(t.object)} is a KG vertex or next to one.`);
    if (ranked.length === 0) {
      const at = vertices[t.subject]?.label ?? vertices[t.object]?.label ?? t.subject;
      return fail(`Found no KG predicate for "${t.relation}" around "${at}".`);
    }
    const merged = new Map((relationPredicates[t.relation] ?? []).map((p) => [`${p.iri} ${p.direction} ${p.vertex}`, p]));
    for (const p of ranked) {
      const key = `${p.iri} ${p.direction} ${p.vertex}`;
      if (!merged.has(key) || (merged.get(key) as RankedPredicate).score < p.score) merged.set(key, p);
    }
    relationPredicates[t.relation] = [...merged.values()].sort((a, b) => b.score - a.score);
  }
  return { ok: true, relationPredicates };
}

/** A triple next to triple `i` that shares one of its variables and is already linked around a vertex. */
function findNeighbour(
  qir: Qir,
  perTriple: Map<number, RankedPredicate[]>,
  i: number,
  endOf: (term: string) => End,
): { variable: string; bindings: { vertex: string; predicates: RankedPredicate[] } } | undefined {
  const t = qir.triples[i];
  for (const variableTerm of [t.subject, t.object]) {
    for (const [j, n] of qir.triples.entries()) {
      const ranked = perTriple.get(j);
      if (j === i || !ranked?.length) continue;
      if (n.subject !== variableTerm && n.object !== variableTerm) continue;
      const other = n.subject === variableTerm ? n.object : n.subject;
      const end = endOf(other);
      if (end.kind !== "vertex") continue; // keep it to one explored hop from a vertex
      const predicates = ranked.filter((p) => p.vertex === end.iri);
      if (predicates.length) return { variable: variableTerm, bindings: { vertex: end.iri, predicates } };
    }
  }
  return undefined;
}

async function runPredicateQuery(ctx: AgentContext, purpose: string, query: Sparql.SelectQuery): Promise<string[]> {
  const r = await ctx.sparql("relation-linking", purpose, stringify(query));
  if (r.kind !== "SELECT") return [];
  return r.results.bindings.map((b) => b.p).filter((p) => p?.type === "uri").map((p) => p.value);
}

/** One-hop predicates of a vertex: `<v> ?p ?o` (out) and `?s ?p <v>` (in), each bounded. */
export async function predicatesAround(ctx: AgentContext, iri: string): Promise<Found[]> {
  const v = namedNode(iri);
  const [out, inn] = await Promise.all([
    runPredicateQuery(ctx, "predicates out of a linked vertex", selectQuery(["p"], [bgp([triple(v, variable("p"), variable("o"))])], { limit: ONE_HOP_LIMIT })),
    runPredicateQuery(ctx, "predicates into a linked vertex", selectQuery(["p"], [bgp([triple(variable("s"), variable("p"), v)])], { limit: ONE_HOP_LIMIT })),
  ]);
  return [...out.map((p) => ({ iri: p, direction: "out" as const })), ...inn.map((p) => ({ iri: p, direction: "in" as const }))];
}

/** Predicates directly linking two vertices: `<s> ?p <o>` (out, from s) and `<o> ?p <s>` (in, into s). */
async function predicatesBetween(ctx: AgentContext, s: string, o: string): Promise<Found[]> {
  const [a, b] = [namedNode(s), namedNode(o)];
  const [out, inn] = await Promise.all([
    runPredicateQuery(ctx, "predicates between two linked vertices", selectQuery(["p"], [bgp([triple(a, variable("p"), b)])], { limit: ONE_HOP_LIMIT })),
    runPredicateQuery(ctx, "predicates between two linked vertices (reverse)", selectQuery(["p"], [bgp([triple(b, variable("p"), a)])], { limit: ONE_HOP_LIMIT })),
  ]);
  return [...out.map((p) => ({ iri: p, direction: "out" as const, direct: true })), ...inn.map((p) => ({ iri: p, direction: "in" as const, direct: true }))];
}

/**
 * Predicates around the candidate bindings ?x of a variable reached from a vertex through the neighbour's
 * predicates: `{ <v> ?p1 ?x } ?x ?p ?o` (out) and `… ?o ?p ?x` (in).
 */
async function predicatesTwoHops(ctx: AgentContext, hop: { vertex: string; predicates: RankedPredicate[] }): Promise<Found[]> {
  const v = namedNode(hop.vertex);
  const x = variable("x");
  const outIris = [...new Set(hop.predicates.filter((p) => p.direction === "out").map((p) => p.iri))];
  const inIris = [...new Set(hop.predicates.filter((p) => p.direction === "in").map((p) => p.iri))];
  const groups: Sparql.Pattern[][] = [];
  if (outIris.length) groups.push([valuesOf("p1", outIris), bgp([triple(v, variable("p1"), x)])]);
  if (inIris.length) groups.push([valuesOf("p2", inIris), bgp([triple(x, variable("p2"), v)])]);
  const bind: Sparql.Pattern[] = groups.length === 1 ? groups[0] : [union(...groups)];
  const [out, inn] = await Promise.all([
    runPredicateQuery(ctx, "predicates out of the intermediate vertices (two hops)", selectQuery(["p"], [...bind, bgp([triple(x, variable("p"), variable("o"))])], { limit: TWO_HOP_LIMIT })),
    runPredicateQuery(ctx, "predicates into the intermediate vertices (two hops)", selectQuery(["p"], [...bind, bgp([triple(variable("s"), variable("p"), x)])], { limit: TWO_HOP_LIMIT })),
  ]);
  return [...out.map((p) => ({ iri: p, direction: "out" as const })), ...inn.map((p) => ({ iri: p, direction: "in" as const }))];
}

async function addLabels(ctx: AgentContext, labels: Map<string, string>, iris: string[]): Promise<void> {
  const missing = [...new Set(iris)].filter((i) => !labels.has(i) && isSafeIri(i));
  if (missing.length === 0) return;
  const fetched = await fetchLabels(ctx, "relation-linking", missing, "predicate labels");
  for (const i of missing) labels.set(i, fetched.get(i) ?? localNameWords(i));
}

/** Filters, labels and ranks the predicates found around one triple end; keeps the top k. */
async function rank(ctx: AgentContext, relation: string, anchor: string, found: Found[], labels: Map<string, string>): Promise<RankedPredicate[]> {
  const typeWanted = TYPE_PHRASE.test(relation);
  const seen = new Set<string>();
  const kept: Found[] = [];
  const unsafe: string[] = [];
  for (const f of found) {
    const key = `${f.iri} ${f.direction}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (!isSafeIri(f.iri)) {
      unsafe.push(f.iri);
      continue;
    }
    if (isBookkeeping(f.iri, ctx)) continue;
    if (ctx.kg.profile.typePredicates.includes(f.iri) && !typeWanted && !f.direct) continue;
    kept.push(f);
  }
  if (unsafe.length) ctx.emit({ type: "warning", stage: "relation-linking", message: `Ignored ${unsafe.length} predicate IRI(s) that cannot be written in a query.` });
  if (kept.length === 0) return [];
  const names = kept.map((f) => labels.get(f.iri) ?? localNameWords(f.iri));
  const words = kept.map((f) => localNameWords(f.iri));
  // one batched call: labels and local-name words; a predicate scores by the better of the two
  const scores = await ctx.similarity.scores(relation, [...names, ...words]);
  const ranked = kept
    .map((f, i) => ({
      iri: f.iri,
      label: names[i],
      score: Math.max(scores[i] ?? 0, scores[i + kept.length] ?? 0),
      direction: f.direction,
      vertex: anchor,
    }))
    .sort((a, b) => b.score - a.score || a.label.localeCompare(b.label))
    .slice(0, ctx.config.topPredicates);
  ctx.emit({
    type: "tool-call",
    stage: "relation-linking",
    tool: "rank-predicates",
    input: { relation, around: anchor, candidates: kept.length, similarity: ctx.similarity.name },
    output: ranked.map((p) => ({ label: p.label, iri: p.iri, direction: p.direction, score: Math.round(p.score * 1000) / 1000 })),
  });
  return ranked;
}
