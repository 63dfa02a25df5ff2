// Query generator (paper §5.2.1), pure: QIR triples × linked vertices × ranked predicates → candidate SPARQL ASTs, best first.
//
// Decisions:
// - Each ranked predicate is placed by its `direction` relative to the triple end it was found around (`vertex`: a
//   vertex IRI or, for two-hop links, the QIR variable): "out" → (end, p, other), "in" → (other, p, end).
// - Triples join on shared variables (same QIR term → same SPARQL variable) and shared vertices.
// - boolean → ASK { … }; factoid → SELECT DISTINCT ?target … LIMIT 1000 (answers are shown, not streamed);
//   count → BOTH `SELECT (COUNT(DISTINCT ?target) AS ?count)` and the plain SELECT DISTINCT ?target of the same
//   pattern, adjacent: the planner answers with the count unless the plain SELECT yields a numeric literal (a KG that
//   stores "number of pages: 223" answers "How many pages…?" with that literal, where COUNT would say 1).
// - A question with no variable left (e.g. a factoid QIR between two entities) becomes an ASK.
// - Candidates are ordered by the mean similarity of their predicates (ties keep generation order), deduplicated by
//   text, truncated to query_num and numbered from 1. Every query is a sparqljs AST; an IRI that could break out of
//   <…> is refused (AppError bad_request), never pasted.
// - Constraints (query-modifiers.ts): values are written as the KG's literal (or a VALUES of its forms), classes as
//   rdf:type patterns, comparisons as FILTER (HAVING on an aggregate), negated triples as FILTER NOT EXISTS with their
//   own predicates (part of the candidate's predicate set), the exclusion as FILTER NOT IN, and the projection with
//   GROUP BY, aggregates, ORDER BY, LIMIT and OFFSET. A QIR's LIMIT replaces the row limit.
// - Each candidate records its `wiring` (the pattern; a COUNT and its plain SELECT share it) and how many QIR triples
//   it places `reversed` (the edge runs object → subject of the QIR triple); the planner uses both (query-planner.ts).
import type * as Sparql from "sparqljs";
import type { CandidateQuery, LinkedClass, LinkedLiteral, LinkedVertex, Qir, RankedPredicate } from "../state";
import { askQuery, bgp, countQuery, filter, namedNode, stringify, triple, valuesOfTerms, variable, varName, type ObjectTerm, type PatternTerm } from "@/lib/pipeline/common/sparql-ast";
import { describeConstraints } from "../qir-describe";
import { isVariable } from "./relation-linking";
import { classPatterns, comparisonExpression, exclusionFilter, literalBinding, negationGroups, notExists, selectShape, shapedSelect, type LiteralBinding } from "./query-modifiers";

/** default rows per plain SELECT (the app's cap); GeneratorInput.rowLimit (config.rowLimit) overrides it */
export const SELECT_LIMIT = 1000;
/** Bound on predicate combinations enumerated before ranking (k^triples grows fast). */
export const MAX_COMBINATIONS = 20_000;

export interface GeneratorInput {
  qir: Qir;
  vertices: Record<string, LinkedVertex>;
  relationPredicates: Record<string, RankedPredicate[]>;
  /** query_num: candidates kept */
  queryNum: number;
  /** k: predicates used per triple end (relation linking already keeps k; this re-applies it) */
  topPredicates?: number;
  /** LIMIT of the plain SELECTs (config.rowLimit; default SELECT_LIMIT) */
  rowLimit?: number;
  /** values linked to the KG's literals, by mention */
  literals?: Record<string, LinkedLiteral>;
  /** classes of unknowns, by variable */
  classes?: Record<string, LinkedClass>;
  excluded?: { variable: string; iris: string[] };
  /** a variable ranging over named IRIs ("which of A and B"): VALUES */
  among?: { variable: string; iris: string[] };
  /** the profile's type predicate (rdf:type) for class patterns */
  typePredicate?: string;
}

interface Option {
  pattern: Sparql.Triple;
  iri: string;
  score: number;
  key: string;
  /** the edge runs from the QIR triple's object to its subject */
  reversed: boolean;
  negated: boolean;
}

/** Assigns each QIR variable (and aggregate alias) a distinct valid SPARQL variable name. */
function variableNames(qir: Qir): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  const add = (term: string) => {
    if (names.has(term)) return;
    let name = varName(term);
    for (let i = 2; used.has(name); i++) name = `${varName(term)}_${i}`;
    used.add(name);
    names.set(term, name);
  };
  for (const term of [...qir.triples, ...(qir.negated ?? [])].flatMap((t) => [t.subject, t.object])) if (isVariable(term, qir)) add(term);
  for (const c of qir.classes ?? []) add(c.variable);
  for (const a of qir.aggregates ?? []) add(a.alias);
  return names;
}

export function generateQueries(input: GeneratorInput): CandidateQuery[] {
  const { qir, vertices, relationPredicates } = input;
  const literals = input.literals ?? {};
  const k = input.topPredicates ?? Infinity;
  const vars = variableNames(qir);
  const bindings = new Map<string, LiteralBinding>();
  let fresh = 0;
  const literalOfMention = (term: string): LiteralBinding | undefined => {
    const l = literals[term];
    if (!l) return undefined;
    let b = bindings.get(term);
    if (!b) bindings.set(term, (b = literalBinding(l, `value_${++fresh}`)));
    return b;
  };
  const termOf = (term: string): ObjectTerm | undefined => {
    const v = vertices[term];
    if (v) return namedNode(v.iri);
    const l = literalOfMention(term);
    if (l) return l.term;
    const name = vars.get(term);
    return name ? variable(name) : undefined;
  };
  const idOf = (term: string) => vertices[term]?.iri ?? term;

  const triples = [...qir.triples.map((t) => ({ t, negated: false })), ...(qir.negated ?? []).map((t) => ({ t, negated: true }))];
  const perTriple: Option[][] = [];
  for (const { t, negated } of triples) {
    const s = termOf(t.subject);
    const o = termOf(t.object);
    if (!s || !o) return []; // an end that is neither linked nor a variable: nothing sound to build
    const ends = [
      { id: idOf(t.subject), term: s, other: o, isSubject: true },
      { id: idOf(t.object), term: o, other: s, isSubject: false },
    ];
    const options: Option[] = [];
    const seen = new Set<string>();
    for (const end of ends) {
      const ranked = (relationPredicates[t.relation] ?? []).filter((p) => p.vertex === end.id).slice(0, k);
      for (const p of ranked) {
        const [subject, object] = p.direction === "out" ? [end.term, end.other] : [end.other, end.term];
        if (subject.termType === "Literal") continue; // a value is never a subject
        const pattern = triple(subject as PatternTerm, namedNode(p.iri), object);
        const key = `${negated ? "not " : ""}${subject.value} ${p.iri} ${object.value}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // "out" from the subject or "in" to the object keeps the QIR's subject → object reading
        const reversed = end.isSubject !== (p.direction === "out");
        options.push({ pattern, iri: p.iri, score: p.score, key, reversed, negated });
      }
      if (ends[0].id === ends[1].id) break; // a self-loop triple: one end is enough
    }
    if (options.length === 0) return [];
    // a negated triple read backwards negates something else (and an empty answer is a real answer there, so the
    // planner would not fall back from it): keep the QIR's reading when the KG has it
    const kept = negated && options.some((o) => !o.reversed) ? options.filter((o) => !o.reversed) : options;
    perTriple.push(kept.sort((a, b) => b.score - a.score));
  }
  // a class alone ("How many hotels are there?") is a pattern of its own
  if (perTriple.length === 0 && !(qir.classes?.length && input.classes && Object.keys(input.classes).length)) return [];

  const combos: Option[][] = [];
  const walk = (i: number, acc: Option[]) => {
    if (combos.length >= MAX_COMBINATIONS) return;
    if (i === perTriple.length) {
      combos.push(acc);
      return;
    }
    for (const o of perTriple[i]) walk(i + 1, [...acc, o]);
  };
  walk(0, []);

  const target = pickTarget(qir, vars);
  const scored = combos
    .map((combo, order) => ({ combo, order, score: combo.length ? combo.reduce((sum, o) => sum + o.score, 0) / combo.length : 1 }))
    .sort((a, b) => b.score - a.score || a.order - b.order);

  const modifiers = describeConstraints({ ...qir, compose: undefined });
  const out: CandidateQuery[] = [];
  const texts = new Set<string>();
  const push = (kind: CandidateQuery["kind"], query: Sparql.SparqlQuery, combo: Option[], score: number) => {
    const sparql = stringify(query);
    if (texts.has(sparql)) return;
    texts.add(sparql);
    out.push({
      id: out.length + 1,
      sparql,
      kind,
      predicates: [...new Set(combo.map((o) => o.iri))],
      score,
      wiring: combo.map((o) => o.key).join(" . "),
      reversed: combo.filter((o) => o.reversed).length,
      ...(modifiers.length ? { modifiers } : {}),
    });
  };
  const rowLimit = input.rowLimit ?? SELECT_LIMIT;
  const nameOf = (term: string) => vars.get(term);
  for (const { combo, score } of scored) {
    if (out.length >= input.queryNum) break;
    const where = whereOf(input, combo, vars, bindings);
    if (qir.questionType === "boolean" || !target) push("ASK", askQuery(where), combo, score);
    else if (qir.questionType === "count") {
      const alias = [...vars.values()].includes("count") ? "count_answer" : "count";
      push("COUNT", countQuery(target, where, alias), combo, score);
      push("SELECT", shapedSelect(selectShape({ ...qir, columns: [], order: [], limit: undefined, offset: undefined }, nameOf, rowLimit), where), combo, score);
    } else push("SELECT", shapedSelect(selectShape(qir, nameOf, rowLimit), where), combo, score);
  }
  return out.slice(0, input.queryNum);
}

/** The WHERE of one combination: its patterns, classes, values, comparisons, negation groups and exclusion. */
function whereOf(input: GeneratorInput, combo: Option[], vars: Map<string, string>, bindings: Map<string, LiteralBinding>): Sparql.Pattern[] {
  const { qir } = input;
  const positive = dedupePatterns(combo.filter((o) => !o.negated));
  const negated = dedupePatterns(combo.filter((o) => o.negated));
  const varsIn = (ts: Sparql.Triple[]) => new Set(ts.flatMap((t) => [t.subject, t.object]).filter((x) => x.termType === "Variable").map((x) => x.value));
  const outer = varsIn(positive);
  const termsByName = new Map([...vars].map(([term, name]) => [name, term]));
  // what the answer shows, and classes of variables no negated triple uses, belong to the question's own pattern
  // (a class alone: "Which albums have no offer?" is ?a a Album plus the negation)
  const inNegated = varsIn(negated);
  for (const term of [qir.target, ...(qir.columns ?? []), ...(qir.groupBy ?? [])]) if (term && vars.get(term) && !(qir.aggregates ?? []).some((a) => a.alias === term)) outer.add(vars.get(term) as string);
  for (const c of qir.classes ?? []) {
    const name = vars.get(c.variable);
    if (name && !inNegated.has(name)) outer.add(name);
  }
  // a negation with nothing outside to hang on ("Are there hotels with no restaurant?"): the first class the QIR
  // names among its variables is what the question is about
  if (negated.length && ![...inNegated].some((n) => outer.has(n))) {
    const first = (qir.classes ?? []).map((c) => vars.get(c.variable)).find((n): n is string => !!n && inNegated.has(n));
    if (first) outer.add(first);
  }
  const nameOf = (term: string) => vars.get(term);
  const classesOf = (names: Set<string>) => classPatterns([...names].map((n) => termsByName.get(n) ?? n), input.classes ?? {}, nameOf, input.typePredicate);
  const valuesOf = (ts: Sparql.Triple[]) => [...bindings.values()].filter((b) => ts.some((t) => t.object === b.term)).flatMap((b) => b.patterns);

  const where: Sparql.Pattern[] = [];
  const am = input.among && vars.get(input.among.variable);
  if (am && input.among?.iris.length) where.push(valuesOfTerms(am, input.among.iris.map((i) => namedNode(i))));
  const bgpTriples = [...positive, ...classesOf(outer)];
  if (bgpTriples.length) where.push(bgp(bgpTriples));
  where.push(...valuesOf(positive));
  for (const c of qir.comparisons ?? []) {
    if ((qir.aggregates ?? []).some((a) => a.alias === c.variable)) continue; // HAVING, in the SELECT
    const name = vars.get(c.variable);
    const other = c.other ? vars.get(c.other) : undefined;
    if (name) where.push(filter(comparisonExpression(c, variable(name), other ? variable(other) : undefined)));
  }
  const groups = negationGroups(negated, (n) => !outer.has(n));
  for (const g of groups) {
    const local = new Set([...varsIn(g)].filter((n) => !outer.has(n)));
    where.push(notExists([bgp([...g, ...classesOf(local)]), ...valuesOf(g)]));
  }
  const ex = input.excluded && vars.get(input.excluded.variable);
  if (ex && input.excluded) {
    const f = exclusionFilter(variable(ex), input.excluded.iris);
    if (f) where.push(f);
  }
  return where;
}

function dedupePatterns(combo: Option[]): Sparql.Triple[] {
  const seen = new Set<string>();
  return combo.filter((o) => !seen.has(o.key) && seen.add(o.key)).map((o) => o.pattern);
}

/** The answer variable: the QIR's target if it is a variable or alias, else the first unknown that is. */
function pickTarget(qir: Qir, vars: Map<string, string>): string | undefined {
  if (qir.target && vars.has(qir.target)) return vars.get(qir.target);
  for (const u of qir.unknowns) if (vars.has(u)) return vars.get(u);
  return vars.values().next().value;
}
