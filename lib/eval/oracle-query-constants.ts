// A gold query's constants grounded by the rules of lib/eval/oracle-grounding.ts: every IRI, literal and number, and
// LIMIT/OFFSET, must come from the asked question, an earlier tool/pipeline output or a reviewed normalisation. What
// nothing grounds becomes a fresh variable (LIMIT/OFFSET: removed) and is counted on the question's oracle log. The
// query's structure (patterns, aggregates, filters, order) stays the gold's: the model's reasoning the oracle plays.
import type { SparqlQuery } from "sparqljs";
import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import { AppError } from "@/lib/errors";
import { groundConstant, isStandardIri, noteDropped, noteGrounded, noteStructure, type ConstantSources, type OracleLog } from "./oracle-grounding";
import { structuralLiterals } from "./oracle-structure";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const NUMERIC = new Set(["integer", "decimal", "double", "float", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong"].map((t) => `${XSD}${t}`));

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;

const pathIris = (p: unknown): string[] =>
  isObj(p) && p.termType === "NamedNode" ? [String(p.value)] : isObj(p) && Array.isArray(p.items) ? p.items.flatMap(pathIris) : [];

export interface GroundedQuery {
  ast: SparqlQuery;
  sparql: string;
  /** constants that nothing grounded (made variables or removed) */
  dropped: string[];
}

/**
 * The query with each ungrounded constant made a fresh variable `?ungrounded_N` (the same constant, the same variable)
 * and an ungrounded LIMIT/OFFSET removed. `knownIri` says which IRIs the pipeline surfaced (the standard vocabulary
 * always counts as known); numbers and literals are checked against `sources`.
 */
export function groundQueryConstants(
  query: SparqlQuery | string,
  sources: ConstantSources,
  log: OracleLog,
  knownIri: (iri: string) => boolean,
  options: { neutralVariables?: boolean } = {},
): GroundedQuery {
  let ast: SparqlQuery;
  if (typeof query === "string") {
    try {
      ast = parseSparql(query);
    } catch (e) {
      throw new AppError("bad_request", `Oracle: the query cannot be parsed (${(e as Error).message.split("\n")[0]}).`);
    }
  } else ast = query;
  const dropped: string[] = [];
  // literals that are the query's structure (REGEX flags, IF outputs, …): kept, each logged (lib/eval/oracle-structure.ts)
  const structural = structuralLiterals(ast, sources.question);
  const fresh = new Map<string, Node>();
  const variableFor = (key: string): Node => {
    let v = fresh.get(key);
    if (!v) fresh.set(key, (v = { termType: "Variable", value: `ungrounded_${fresh.size + 1}` }));
    return v;
  };
  const drop = (what: string) => {
    if (!dropped.includes(what)) dropped.push(what);
    noteDropped(log, what);
  };
  const check = (kind: "number" | "literal", value: string): boolean => {
    const g = groundConstant({ kind, value }, sources);
    if (g) noteGrounded(log, g);
    return !!g;
  };
  const map = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => map(x));
    if (!isObj(v)) return v;
    if (key === "datatype") return v; // a literal's datatype IRI is part of the literal
    if (v.termType === "NamedNode") {
      const iri = String(v.value);
      if (isStandardIri(iri) || knownIri(iri)) return v;
      drop(`iri <${iri}>`);
      return variableFor(`I ${iri}`);
    }
    if (v.termType === "Literal") {
      const value = String(v.value);
      const datatype = isObj(v.datatype) ? String(v.datatype.value) : "";
      if (datatype === `${XSD}boolean`) return v; // true/false: the query language's, not a KG constant
      const reason = structural.get(v);
      if (reason) {
        noteStructure(log, reason, value);
        return v;
      }
      const kind = NUMERIC.has(datatype) ? "number" : "literal";
      if (check(kind, value)) return v;
      drop(`${kind} ${kind === "number" ? value : JSON.stringify(value)}`);
      return variableFor(`L ${datatype} ${value}`);
    }
    if (v.termType) return v;
    if (v.type === "values" && Array.isArray(v.values)) {
      // VALUES cannot hold a variable: a row with an ungrounded constant is dropped (and counted)
      const rows = (v.values as Node[]).filter((row) =>
        Object.values(row).every((t) => {
          if (!isObj(t) || !t.termType) return true;
          if (t.termType === "NamedNode") {
            const iri = String(t.value);
            if (isStandardIri(iri) || knownIri(iri)) return true;
            drop(`iri <${iri}>`);
            return false;
          }
          if (t.termType === "Literal") {
            const datatype = isObj(t.datatype) ? String(t.datatype.value) : "";
            const kind = NUMERIC.has(datatype) ? "number" : "literal";
            if (datatype === `${XSD}boolean` || check(kind, String(t.value))) return true;
            drop(`${kind} ${kind === "number" ? String(t.value) : JSON.stringify(String(t.value))}`);
            return false;
          }
          return true;
        }),
      );
      return { ...v, values: rows };
    }
    if (v.type === "path") {
      // a property path cannot hold a variable: one ungrounded IRI makes the whole path a variable
      const iris = pathIris(v).filter((i) => !isStandardIri(i) && !knownIri(i));
      if (!iris.length) return v;
      for (const i of iris) drop(`iri <${i}>`);
      return variableFor(`P ${iris.join(" ")}`);
    }
    return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, k === "prefixes" ? c : map(c, k)]));
  };
  const mapped = map(ast) as Node;
  // LIMIT/OFFSET of the query and of its subqueries
  const window = (q: unknown): void => {
    if (Array.isArray(q)) return q.forEach(window);
    if (!isObj(q)) return;
    for (const k of ["limit", "offset"] as const) {
      if (typeof q[k] === "number" && !(k === "offset" && q[k] === 0)) {
        const n = String(q[k]);
        // a window's size is the question's to say: a value some output happens to hold ("3" of a track number) is not
        const g = groundConstant({ kind: "number", value: n }, { question: sources.question, language: sources.language });
        if (g) noteGrounded(log, g);
        else {
          drop(`${k.toUpperCase()} ${n}`);
          delete q[k];
        }
      }
    }
    for (const [k, c] of Object.entries(q)) if (k !== "prefixes") window(c);
  };
  window(mapped);
  // An ASK without its constant asks whether anything at all matches (nearly always "yes"): no query, not a lucky one
  if (mapped.queryType === "ASK" && dropped.length)
    throw new AppError("bad_request", `Oracle: no yes/no query without ${dropped.join(", ")} (not grounded by the question or any output).`);
  const out = (options.neutralVariables ? neutralVariables(mapped) : mapped) as unknown as SparqlQuery;
  return { ast: out, sparql: stringifySparql(out), dropped };
}

/** Variables renamed ?v1, ?v2 … in order of first appearance: no gold variable name ("?total") reaches a prompt. */
function neutralVariables(ast: Node): Node {
  const names = new Map<string, string>();
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!isObj(v)) return v;
    if (v.termType === "Variable") {
      const name = String(v.value);
      if (!names.has(name)) names.set(name, `v${names.size + 1}`);
      return { termType: "Variable", value: names.get(name) };
    }
    if (v.termType) return v; // other terms (the wildcard of COUNT(*) keeps its prototype)
    if (v.type === "values" && Array.isArray(v.values)) {
      // VALUES rows are keyed by "?name"
      const row = (r: Node) => Object.fromEntries(Object.entries(r).map(([k, t]) => [`?${(walk({ termType: "Variable", value: k.slice(1) }) as Node).value}`, walk(t)]));
      return { ...v, values: (v.values as Node[]).map(row) };
    }
    return Object.fromEntries(Object.entries(v).map(([k, c]) => [k, k === "prefixes" ? c : walk(c)]));
  };
  return walk(ast) as Node;
}
