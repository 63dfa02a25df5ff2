// Relation linking (paper §5.1.3): predicates around each linked end of a QIR triple, both directions, ranked by
// similarity to the relation phrase.
//
// Decisions (documented here, not in state.ts):
// - relationPredicates is keyed by relation phrase (the paper's RelToPred). Each entry records the end of the triple it
//   was found around in `vertex`: the vertex IRI, the literal value's mention, or — for a triple between two unknowns —
//   the QIR variable ("?film") whose candidate bindings were explored. `direction` is relative to that end ("in" for a
//   value: ?x <p> "value"). The query generator matches entries to triple ends by this field, so two triples sharing a
//   phrase do not mix.
// - Entity–entity triples first ask for predicates directly between the two vertices (both directions); only if none
//   exist do they fall back to the predicates around the subject (the ASK then truthfully answers "no"). A vertex and
//   a value likewise: predicates from the vertex to the value, else around the vertex.
// - A value's candidates are the predicates that carry it (value search, entity linking).
// - A variable is explored once it has candidate bindings: its class's instances, or the bindings reached from a
//   linked end through the strongest predicates of the triple in between — chains of any length (breadth first, one
//   hop per round), each query bounded (a LIMITed sample of the bindings, a LIMIT on the predicates).
// - A question that names nothing at all (a relation-level question) ranks each of its triples among the KG's
//   predicates (small KGs only); on large KGs, or for a triple unconnected to the named parts, it fails as before,
//   saying which relation.
// - A composed question (QIR compose) goes on when a relation finds no predicate: the query writer reads the classes
//   around what was linked.
// - Bookkeeping predicates are dropped: label/description predicates of the profile, owl:sameAs, rdfs:seeAlso,
//   foaf:isPrimaryTopicOf, prov:*, wikiPage*. Type predicates (rdf:type, wdt:P31) are kept only when the relation
//   phrase asks for a type ("type", "kind", "class", "is a", "instance of", …) or when they directly link two
//   entities of the question ("Is X a film?"): otherwise every vertex's rdf:type would crowd the top k.
import type * as Sparql from "sparqljs";
import { isSafeIri } from "@/lib/kg/escape";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { isKgTimeout } from "@/lib/pipeline/common/kg-budget";
import type { QueryResult } from "@/lib/kg/types";
import type { LinkedClass, LinkedLiteral, LinkedVertex, Qir, RankedPredicate, StageFailure } from "../state";
import { bgp, namedNode, selectQuery, stringify, triple, valuesOfTerms, variable } from "@/lib/pipeline/common/sparql-ast";
import { classPattern, fromClass, fromEdge, fromLiteral, fromVariable, fromVertex, literalOf, sampleOf, type BindingSource, fromVertices } from "./binding-sources";
import { kgSchemaLists } from "./kg-schema-cache";
import { twoHopChains, twoHopFits } from "./path-fit";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import { isBookkeeping } from "@/lib/pipeline/common/bookkeeping";

/** LIMIT of the one-hop predicate queries (hub vertices have thousands of edges). */
export const ONE_HOP_LIMIT = 500;
/** LIMIT of the predicate queries around a variable's sampled bindings. */
export const TWO_HOP_LIMIT = 200;

export const TYPE_PHRASE = /\b(types?|kinds?|class(es)?|category|categories|instance|is an?|are an?|was an?|sort of)\b/i;

export type RelationLinkingResult =
  | { ok: true; relationPredicates: Record<string, RankedPredicate[]> }
  | { ok: false; failure: StageFailure };

type End =
  | { kind: "vertex"; iri: string; term: string }
  | { kind: "literal"; literal: LinkedLiteral; term: string }
  | { kind: "var"; term: string }
  | { kind: "none"; term: string };

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

/** What entity linking produced besides the vertices: values linked to the KG's literals, and classes of unknowns. */
export interface LinkedExtras {
  literals?: Record<string, LinkedLiteral>;
  classes?: Record<string, LinkedClass>;
  /** a variable that ranges over named entities ("which of A and B") */
  among?: { variable: string; iris: string[] };
}

export async function linkRelations(qir: Qir, vertices: Record<string, LinkedVertex>, ctx: AgentContext, extras: LinkedExtras = {}): Promise<RelationLinkingResult> {
  if (ctx.similarity.warning) ctx.emit({ type: "warning", stage: "relation-linking", code: "setup", message: ctx.similarity.warning });
  const literals = extras.literals ?? {};
  const endOf = (term: string): End => {
    const v = vertices[term];
    if (v) return { kind: "vertex", iri: v.iri, term };
    const l = literals[term];
    if (l) return { kind: "literal", literal: l, term };
    return isVariable(term, qir) ? { kind: "var", term } : { kind: "none", term };
  };
  const oneHop = new Map<string, Promise<Found[]>>();
  const around = (iri: string) => {
    let p = oneHop.get(iri);
    if (!p) oneHop.set(iri, (p = predicatesAround(ctx, iri)));
    return p;
  };
  const labels = new Map<string, string>();
  const triples = [...qir.triples, ...(qir.negated ?? [])];
  // per triple index: ranked predicates (top k per anchored end), and the end they were found around
  const perTriple = new Map<number, { ranked: RankedPredicate[]; anchor: End }>();
  // candidate bindings of the variables reached so far
  const sources = new Map<string, BindingSource>();
  const typePredicate = ctx.kg.profile.typePredicates[0];
  for (const c of Object.values(extras.classes ?? {})) if (typePredicate) sources.set(c.variable, fromClass(c, typePredicate));
  if (extras.among?.iris.length) sources.set(extras.among.variable, fromVertices(extras.among.iris));

  // two-hop chains from an unknown's class to a linked vertex: the predicates the KG's paths between them use
  const fits = typePredicate ? await twoHopFits(ctx, twoHopChains(triples, (t) => vertices[t]?.iri, (t) => isVariable(t, qir), extras.classes ?? {}), typePredicate) : new Map<number, Set<string>>();
  const record = async (i: number, anchor: End, all: Found[]) => {
    const fit = fits.get(i);
    const narrowed = fit ? all.filter((f) => fit.has(f.iri)) : [];
    const found = narrowed.length ? narrowed : all;
    await addLabels(ctx, labels, found.map((f) => f.iri));
    const id = anchor.kind === "vertex" ? anchor.iri : anchor.term;
    const ranked = await rank(ctx, triples[i].relation, id, found, labels);
    perTriple.set(i, { ranked, anchor });
    // the triple's other end, when it is a variable, can now be explored from here
    const t = triples[i];
    const other = t.subject === anchor.term ? t.object : t.subject;
    if (ranked.length === 0 || !isVariable(other, qir) || sources.has(other) || endOf(other).kind !== "var") return;
    if (anchor.kind === "vertex") sources.set(other, fromVertex(anchor.iri, ranked));
    else if (anchor.kind === "literal") sources.set(other, fromLiteral(anchor.literal.terms, ranked));
    else if (anchor.kind === "var" && sources.has(anchor.term)) sources.set(other, fromVariable(sources.get(anchor.term) as BindingSource, ranked));
  };

  // Pass 1: triples with a linked vertex or value at one or both ends.
  const firstPass = triples.map(async (t, i) => {
    const s = endOf(t.subject);
    const o = endOf(t.object);
    const vertex = [s, o].find((e): e is Extract<End, { kind: "vertex" }> => e.kind === "vertex");
    const value = [s, o].find((e): e is Extract<End, { kind: "literal" }> => e.kind === "literal" && e.literal.terms.length > 0);
    if (s.kind === "vertex" && o.kind === "vertex") {
      const direct = await predicatesBetween(ctx, s.iri, namedNode(o.iri));
      return { i, anchor: s as End, found: direct.length ? direct : await around(s.iri) };
    }
    if (vertex && value) {
      const direct = await predicatesBetween(ctx, vertex.iri, value.literal.terms.map(literalOf));
      return { i, anchor: vertex as End, found: direct.length ? direct.filter((f) => f.direction === "out") : await around(vertex.iri) };
    }
    if (vertex) {
      // the other end is an unknown of a linked class: the predicates that connect the vertex to that class's
      // instances, when there are any ("voltage levels in <substation>": not every predicate around the substation)
      const other = vertex === s ? o : s;
      const cls = other.kind === "var" ? extras.classes?.[other.term] : undefined;
      const fit = cls && typePredicate ? await predicatesToClass(ctx, vertex.iri, cls, typePredicate) : [];
      return { i, anchor: vertex as End, found: fit.length ? fit : await around(vertex.iri) };
    }
    // ?x <carrier> "value": the value's carriers, seen from the value
    if (value) return { i, anchor: value as End, found: value.literal.carriers.map((iri) => ({ iri, direction: "in" as const })) };
    return undefined;
  });
  const linkedFirst = (await Promise.all(firstPass)).filter((x) => x !== undefined);
  // one label query for everything pass 1 found
  await addLabels(ctx, labels, linkedFirst.flatMap((x) => x.found.map((f) => f.iri)));
  for (const x of linkedFirst) await record(x.i, x.anchor, x.found);

  // Pass 2, one hop per round: triples with an end whose candidate bindings are known, explored around them.
  // Pass 3, when some part of the question is not connected to anything named (a relation-level question, "Which
  // neighbourhood has the most hotels?"): its first triple is linked among all the KG's predicates
  // (small KGs only, kg-schema-cache.ts), and pass 2 goes on from there.
  // (only when the question names nothing at all: an unconnected triple beside named things is a QIR mistake)
  const relationLevel = perTriple.size === 0 && sources.size === 0;
  for (let global = 0; global <= triples.length; global++) {
    for (let round = 0; round <= triples.length; round++) {
      const todo = triples.map((t, i) => ({ t, i })).filter(({ i }) => !perTriple.has(i));
      if (todo.length === 0) break;
      let progressed = false;
      for (const { t, i } of todo) {
        const from = [t.subject, t.object].find((e) => sources.has(e) && endOf(e).kind === "var");
        if (!from) continue;
        const found = await predicatesAroundSample(ctx, sources.get(from) as BindingSource);
        await record(i, endOf(from), found);
        progressed = true;
      }
      if (!progressed) break;
    }
    // every triple not reached yet is ranked among all the KG's predicates (its relation phrase is all there is)
    const lonely = triples.flatMap((t, i) => (!perTriple.has(i) && endOf(t.subject).kind === "var" && endOf(t.object).kind === "var" ? [i] : []));
    if (lonely.length === 0 || !relationLevel) break;
    const all = (await kgSchemaLists(ctx)).predicates;
    if (all.length === 0) break;
    for (const i of lonely) {
      const subject = endOf(triples[i].subject);
      await record(i, subject, all.flatMap((iri) => [{ iri, direction: "out" as const }, { iri, direction: "in" as const }]));
      const ranked = perTriple.get(i)?.ranked ?? [];
      if (ranked.length === 0) continue;
      const edge = fromEdge(ranked);
      if (!sources.has(subject.term)) sources.set(subject.term, edge);
      const object = triples[i].object;
      if (!sources.has(object)) sources.set(object, fromVariable(edge, ranked));
    }
  }

  const relationPredicates: Record<string, RankedPredicate[]> = {};
  for (const [i, t] of triples.entries()) {
    const linked = perTriple.get(i);
    // an analytic question's query is written from what was linked and the classes around it (query-writer.ts): a
    // relation found nowhere is said, not fatal
    if (qir.compose && (!linked || linked.ranked.length === 0)) {
      ctx.emit({ type: "warning", stage: "relation-linking", message: `Found no KG predicate for "${t.relation}"; the query writer works from the classes around the linked parts.` });
      relationPredicates[t.relation] ??= [];
      continue;
    }
    if (!linked) return fail(`Could not link the relation "${t.relation}": neither ${JSON.stringify(t.subject)} nor ${JSON.stringify(t.object)} is a KG vertex, a value or next to one.`);
    if (linked.ranked.length === 0) {
      const at = vertices[t.subject]?.label ?? vertices[t.object]?.label ?? extras.classes?.[t.subject]?.label ?? linked.anchor.term;
      return fail(`Found no KG predicate for "${t.relation}" around "${at}".`);
    }
    const merged = new Map((relationPredicates[t.relation] ?? []).map((p) => [`${p.iri} ${p.direction} ${p.vertex}`, p]));
    for (const p of linked.ranked) {
      const key = `${p.iri} ${p.direction} ${p.vertex}`;
      if (!merged.has(key) || (merged.get(key) as RankedPredicate).score < p.score) merged.set(key, p);
    }
    relationPredicates[t.relation] = [...merged.values()].sort((a, b) => b.score - a.score);
  }
  return { ok: true, relationPredicates };
}

/** A query cut by its timeout or the turn's KG budget finds nothing: the step goes on with fewer candidates (the derivation says so). */
async function orNothing(ctx: AgentContext, purpose: string, query: string): Promise<QueryResult | undefined> {
  try {
    return await ctx.sparql("relation-linking", purpose, query);
  } catch (e) {
    if (ctx.signal?.aborted || !isKgTimeout(e)) throw e;
    return undefined;
  }
}

async function runPredicateQuery(ctx: AgentContext, purpose: string, query: Sparql.SelectQuery): Promise<string[]> {
  const r = await orNothing(ctx, purpose, stringify(query));
  if (!r) return [];
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

/** Predicates between a vertex and the instances of a class: `<v> ?p ?x . ?x a <C>` (out) and `?x ?p <v> . ?x a <C>` (in). */
async function predicatesToClass(ctx: AgentContext, iri: string, cls: LinkedClass, typePredicate: string): Promise<Found[]> {
  const v = namedNode(iri);
  const x = variable("x");
  const [out, inn] = await Promise.all([
    runPredicateQuery(ctx, "predicates from a linked vertex to the other end's class", selectQuery(["p"], [bgp([triple(v, variable("p"), x), classPattern(x, cls, typePredicate)])], { limit: ONE_HOP_LIMIT })),
    runPredicateQuery(ctx, "predicates into a linked vertex from the other end's class", selectQuery(["p"], [bgp([triple(x, variable("p"), v), classPattern(x, cls, typePredicate)])], { limit: ONE_HOP_LIMIT })),
  ]);
  return [...out.map((p) => ({ iri: p, direction: "out" as const })), ...inn.map((p) => ({ iri: p, direction: "in" as const }))];
}

/**
 * Predicates directly linking a vertex to another vertex — `<s> ?p <o>` (out, from s) and `<o> ?p <s>` (in, into s) —
 * or to a value (`<s> ?p "value"`, out only).
 */
async function predicatesBetween(ctx: AgentContext, s: string, o: Sparql.IriTerm | Sparql.LiteralTerm[]): Promise<Found[]> {
  const a = namedNode(s);
  if (Array.isArray(o)) {
    const q = selectQuery(["p"], [valuesOfTerms("v", o), bgp([triple(a, variable("p"), variable("v"))])], { limit: ONE_HOP_LIMIT });
    return (await runPredicateQuery(ctx, "predicates from a linked vertex to a linked value", q)).map((p) => ({ iri: p, direction: "out" as const, direct: true }));
  }
  const [out, inn] = await Promise.all([
    runPredicateQuery(ctx, "predicates between two linked vertices", selectQuery(["p"], [bgp([triple(a, variable("p"), o)])], { limit: ONE_HOP_LIMIT })),
    runPredicateQuery(ctx, "predicates between two linked vertices (reverse)", selectQuery(["p"], [bgp([triple(o, variable("p"), a)])], { limit: ONE_HOP_LIMIT })),
  ]);
  return [...out.map((p) => ({ iri: p, direction: "out" as const, direct: true })), ...inn.map((p) => ({ iri: p, direction: "in" as const, direct: true }))];
}

/**
 * Predicates around a bounded sample of a variable's candidate bindings ?x (its class's instances, or what the chain
 * from a linked end reaches): the sample first (`SELECT DISTINCT ?x … LIMIT 200`), then `VALUES ?x {…} ?x ?p ?o` (out)
 * and `… ?s ?p ?x` (in). Two round trips, not one query with the sample as a subquery: Virtuoso joined such a subquery
 * after scanning every `?x ?p ?o` of the store (over 60 s on a 10M-triple graph beside CK25; VALUES: under 0.5 s).
 */
async function predicatesAroundSample(ctx: AgentContext, source: BindingSource): Promise<Found[]> {
  const x = variable("x");
  const sample = await orNothing(ctx, "a sample of a variable's candidate bindings", stringify(selectQuery(["x"], [sampleOf(source, "x")])));
  const terms: (Sparql.IriTerm | Sparql.LiteralTerm)[] = [];
  let blank = false;
  for (const b of sample?.kind === "SELECT" ? sample.results.bindings : []) {
    if (b.x?.type === "uri") terms.push(namedNode(b.x.value));
    else if (b.x?.type === "literal") terms.push(literalOf(b.x));
    else if (b.x?.type === "bnode") blank = true;
  }
  // blank nodes cannot be written into VALUES (rows of a table without a key): their predicates are read through
  // the sample's own pattern instead
  if (terms.length === 0 && blank) return predicatesAroundPattern(ctx, source);
  if (terms.length === 0) return [];
  const iris = terms.filter((t): t is Sparql.IriTerm => t.termType === "NamedNode");
  const [out, inn] = await Promise.all([
    iris.length === 0 ? [] : runPredicateQuery(ctx, "predicates out of a variable's candidate bindings", selectQuery(["p"], [valuesOfTerms("x", iris), bgp([triple(x, variable("p"), variable("o"))])], { limit: TWO_HOP_LIMIT })),
    runPredicateQuery(ctx, "predicates into a variable's candidate bindings", selectQuery(["p"], [valuesOfTerms("x", terms), bgp([triple(variable("s"), variable("p"), x)])], { limit: TWO_HOP_LIMIT })),
  ]);
  return [...out.map((p) => ({ iri: p, direction: "out" as const })), ...inn.map((p) => ({ iri: p, direction: "in" as const }))];
}

/** Predicates around a variable's bindings through its sampled pattern (one query per direction): for blank nodes. */
async function predicatesAroundPattern(ctx: AgentContext, source: BindingSource): Promise<Found[]> {
  const x = variable("x");
  const [out, inn] = await Promise.all([
    runPredicateQuery(ctx, "predicates out of a variable's candidate bindings (blank nodes)", selectQuery(["p"], [sampleOf(source, "x"), bgp([triple(x, variable("p"), variable("o"))])], { limit: TWO_HOP_LIMIT })),
    runPredicateQuery(ctx, "predicates into a variable's candidate bindings (blank nodes)", selectQuery(["p"], [sampleOf(source, "x"), bgp([triple(variable("s"), variable("p"), x)])], { limit: TWO_HOP_LIMIT })),
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
