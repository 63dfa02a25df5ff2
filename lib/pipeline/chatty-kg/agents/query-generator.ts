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
// - Each candidate records its `wiring` (the pattern; a COUNT and its plain SELECT share it) and how many QIR triples
//   it places `reversed` (the edge runs object → subject of the QIR triple); the planner uses both (query-planner.ts).
import type * as Sparql from "sparqljs";
import type { CandidateQuery, LinkedVertex, Qir, RankedPredicate } from "../state";
import { askQuery, bgp, countQuery, namedNode, selectQuery, stringify, triple, variable, varName, type PatternTerm } from "@/lib/pipeline/common/sparql-ast";
import { isVariable } from "./relation-linking";

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
}

interface Option {
  pattern: Sparql.Triple;
  iri: string;
  score: number;
  key: string;
  /** the edge runs from the QIR triple's object to its subject */
  reversed: boolean;
}

/** Assigns each QIR variable a distinct valid SPARQL variable name. */
function variableNames(qir: Qir): Map<string, string> {
  const names = new Map<string, string>();
  const used = new Set<string>();
  for (const term of qir.triples.flatMap((t) => [t.subject, t.object])) {
    if (!isVariable(term, qir) || names.has(term)) continue;
    let name = varName(term);
    for (let i = 2; used.has(name); i++) name = `${varName(term)}_${i}`;
    used.add(name);
    names.set(term, name);
  }
  return names;
}

export function generateQueries(input: GeneratorInput): CandidateQuery[] {
  const { qir, vertices, relationPredicates } = input;
  const k = input.topPredicates ?? Infinity;
  const vars = variableNames(qir);
  const termOf = (term: string): PatternTerm | undefined => {
    const v = vertices[term];
    if (v) return namedNode(v.iri);
    const name = vars.get(term);
    return name ? variable(name) : undefined;
  };

  const perTriple: Option[][] = [];
  for (const t of qir.triples) {
    const s = termOf(t.subject);
    const o = termOf(t.object);
    if (!s || !o) return []; // an end that is neither linked nor a variable: nothing sound to build
    const ends = [
      { id: vertices[t.subject]?.iri ?? t.subject, term: s, other: o, isSubject: true },
      { id: vertices[t.object]?.iri ?? t.object, term: o, other: s, isSubject: false },
    ];
    const options: Option[] = [];
    const seen = new Set<string>();
    for (const end of ends) {
      const ranked = (relationPredicates[t.relation] ?? []).filter((p) => p.vertex === end.id).slice(0, k);
      for (const p of ranked) {
        const pred = namedNode(p.iri);
        const pattern = p.direction === "out" ? triple(end.term, pred, end.other) : triple(end.other, pred, end.term);
        const key = `${pattern.subject.value} ${p.iri} ${pattern.object.value}`;
        if (seen.has(key)) continue;
        seen.add(key);
        // "out" from the subject or "in" to the object keeps the QIR's subject → object reading
        const reversed = end.isSubject !== (p.direction === "out");
        options.push({ pattern, iri: p.iri, score: p.score, key, reversed });
      }
      if (ends[0].id === ends[1].id) break; // a self-loop triple: one end is enough
    }
    if (options.length === 0) return [];
    perTriple.push(options.sort((a, b) => b.score - a.score));
  }
  if (perTriple.length === 0) return [];

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
    .map((combo, order) => ({ combo, order, score: combo.reduce((sum, o) => sum + o.score, 0) / combo.length }))
    .sort((a, b) => b.score - a.score || a.order - b.order);

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
    });
  };
  for (const { combo, score } of scored) {
    if (out.length >= input.queryNum) break;
    const where = [bgp(dedupePatterns(combo))];
    if (qir.questionType === "boolean" || !target) push("ASK", askQuery(where), combo, score);
    else if (qir.questionType === "count") {
      const alias = [...vars.values()].includes("count") ? "count_answer" : "count";
      push("COUNT", countQuery(target, where, alias), combo, score);
      push("SELECT", selectQuery([target], where, { limit: input.rowLimit ?? SELECT_LIMIT }), combo, score);
    } else push("SELECT", selectQuery([target], where, { limit: input.rowLimit ?? SELECT_LIMIT }), combo, score);
  }
  return out.slice(0, input.queryNum);
}

function dedupePatterns(combo: Option[]): Sparql.Triple[] {
  const seen = new Set<string>();
  return combo.filter((o) => !seen.has(o.key) && seen.add(o.key)).map((o) => o.pattern);
}

/** The answer variable: the QIR's target if it occurs in the triples, else the first unknown that does. */
function pickTarget(qir: Qir, vars: Map<string, string>): string | undefined {
  if (qir.target && vars.has(qir.target)) return vars.get(qir.target);
  for (const u of qir.unknowns) if (vars.has(u)) return vars.get(u);
  return vars.values().next().value;
}
