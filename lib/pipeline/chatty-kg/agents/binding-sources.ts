// Where relation linking finds the candidate bindings of a QIR variable it has not linked yet: a graph pattern that
// binds it, built from what is already linked (a vertex, a literal value, a class, or another variable's pattern plus
// the top predicates of the triple in between). Explored through a bounded sample (`sampleOf`).
import type * as Sparql from "sparqljs";
import type { Term } from "@/lib/kg/types";
import { NS } from "@/lib/kg/profile";
import { bgp, literalTerm, namedNode, path, selectQuery, subquery, triple, union, valuesOfTerms, variable } from "@/lib/pipeline/common/sparql-ast";
import type { LinkedClass, RankedPredicate } from "../state";

/** Bindings sampled per variable when exploring around it (a LIMIT inside a subquery: blank nodes are kept). */
export const SAMPLE_LIMIT = 1000;

/** Builds the patterns binding one variable, with fresh variable names on every call (patterns are composed). */
export type BindingSource = (fresh: () => string) => { patterns: Sparql.Pattern[]; v: string };

/** A SPARQL literal term for a KG literal (as the SPARQL JSON results give it). */
export function literalOf(t: Term): Sparql.LiteralTerm {
  return t.type === "literal" ? literalTerm(t.value, { ...(t.datatype ? { datatype: t.datatype } : {}), ...(t["xml:lang"] ? { lang: t["xml:lang"] } : {}) }) : literalTerm(t.value);
}

/** `?x rdf:type <C>`, or `?x rdf:type/rdfs:subClassOf* <C>` when the class has subclasses (RDFS: their instances are Cs). */
export function classPattern(x: Sparql.VariableTerm, cls: Pick<LinkedClass, "iri" | "subclasses">, typePredicate: string): Sparql.Triple {
  const type = namedNode(typePredicate);
  const predicate = cls.subclasses ? path("/", type, path("*", namedNode(`${NS.rdfs}subClassOf`))) : type;
  return triple(x, predicate, namedNode(cls.iri));
}

export function fromClass(cls: Pick<LinkedClass, "iri" | "subclasses">, typePredicate: string): BindingSource {
  return (fresh) => {
    const v = fresh();
    return { patterns: [bgp([classPattern(variable(v), cls, typePredicate)])], v };
  };
}

/** Of a triple's ranked predicates, the ones a chain follows: those scoring at least half the best (all when none scores). */
export function strongest(ranked: RankedPredicate[]): RankedPredicate[] {
  const best = Math.max(0, ...ranked.map((p) => p.score));
  return best > 0 ? ranked.filter((p) => p.score >= best * STRONG_SHARE) : ranked;
}

/** A chain step follows predicates scoring at least this share of the best one (weaker ones would flood the sample). */
export const STRONG_SHARE = 0.5;

/**
 * One group per predicate, each with its IRI in the triple: engines look a bound predicate up in their indexes, where
 * `VALUES ?p { … }` beside `<s> ?p ?x` made Virtuoso scan every triple of the store (seconds per query on a store
 * holding 10M triples, whichever graph is asked; docs/performance.md).
 */
function perPredicate(predicates: string[], make: (p: Sparql.IriTerm) => Sparql.Pattern[]): Sparql.Pattern[][] {
  return predicates.map((p) => make(namedNode(p)));
}

/** One step from an anchor term (IRI, literal or variable) along ranked predicates to a new variable. */
function step(anchor: Sparql.IriTerm | Sparql.VariableTerm | Sparql.LiteralTerm[], all: RankedPredicate[], fresh: () => string): { patterns: Sparql.Pattern[]; v: string } {
  const v = fresh();
  const x = variable(v);
  const ranked = strongest(all);
  const outs = [...new Set(ranked.filter((p) => p.direction === "out").map((p) => p.iri))];
  const ins = [...new Set(ranked.filter((p) => p.direction === "in").map((p) => p.iri))];
  const groups: Sparql.Pattern[][] = [];
  if (Array.isArray(anchor)) {
    // a literal value: ?x <carrier> "value" (values only ever stand in object position)
    const lit = fresh();
    groups.push(...perPredicate(ins.length ? ins : outs, (p) => [valuesOfTerms(lit, anchor), bgp([triple(x, p, variable(lit))])]));
  } else {
    groups.push(...perPredicate(outs, (p) => [bgp([triple(anchor, p, x)])]));
    groups.push(...perPredicate(ins, (p) => [bgp([triple(x, p, anchor)])]));
  }
  return { patterns: groups.length === 1 ? groups[0] : [union(...groups)], v };
}

/** A variable that ranges over named IRIs: VALUES ?x { <a> <b> }. */
export function fromVertices(iris: string[]): BindingSource {
  return (fresh) => {
    const v = fresh();
    return { patterns: [valuesOfTerms(v, iris.map((i) => namedNode(i)))], v };
  };
}

export function fromVertex(iri: string, ranked: RankedPredicate[]): BindingSource {
  return (fresh) => step(namedNode(iri), ranked, fresh);
}

export function fromLiteral(terms: Term[], ranked: RankedPredicate[]): BindingSource {
  return (fresh) => step(terms.map(literalOf), ranked, fresh);
}

/** The ends of the edges of the ranked predicates ("out": subjects, "in": objects): a variable linked among all predicates. */
export function fromEdge(all: RankedPredicate[]): BindingSource {
  return (fresh) => {
    const ranked = strongest(all);
    const v = fresh();
    const x = variable(v);
    const groups: Sparql.Pattern[][] = [];
    const outs = [...new Set(ranked.filter((p) => p.direction === "out").map((p) => p.iri))];
    const ins = [...new Set(ranked.filter((p) => p.direction === "in").map((p) => p.iri))];
    groups.push(...perPredicate(outs, (p) => [bgp([triple(x, p, variable(fresh()))])]));
    groups.push(...perPredicate(ins, (p) => [bgp([triple(variable(fresh()), p, x)])]));
    return { patterns: groups.length === 1 ? groups[0] : [union(...groups)], v };
  };
}

/** From a variable that has its own source, one more hop along the ranked predicates. */
export function fromVariable(source: BindingSource, ranked: RankedPredicate[]): BindingSource {
  return (fresh) => {
    const inner = source(fresh);
    const next = step(variable(inner.v), ranked, fresh);
    return { patterns: [...inner.patterns, ...next.patterns], v: next.v };
  };
}

/** `{ SELECT DISTINCT ?x WHERE { … } LIMIT 200 }`: a bounded sample of the variable's bindings, joined on ?x. */
export function sampleOf(source: BindingSource, as: string): Sparql.Pattern {
  let n = 0;
  const built = source(() => `h${n++}`);
  const inner = selectQuery([built.v], built.patterns, { limit: SAMPLE_LIMIT });
  // expose the sampled variable under the caller's name
  const renamed = { ...inner, variables: [{ expression: variable(built.v), variable: variable(as) }] } as unknown as Sparql.SelectQuery;
  return subquery(renamed);
}
