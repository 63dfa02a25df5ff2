// What a parsed query uses, as the validator needs it: its classes, predicates and other IRIs, and the triple patterns
// every answer must match (the top-level group, outside OPTIONAL, UNION, MINUS and subqueries).
import type * as Sparql from "sparqljs";
import { NS } from "@/lib/kg/profile";

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;

/** Vocabularies a query may name without the KG holding them (rdf:type, xsd casts, …). */
export const STANDARD_NAMESPACES = [NS.rdf, NS.rdfs, NS.xsd, NS.owl];
export const isStandard = (value: string) => STANDARD_NAMESPACES.some((ns) => value.startsWith(ns));

export interface QueryTerms {
  classes: string[];
  predicates: string[];
  /** IRIs in subject or object position, VALUES, FILTER or BIND (classes and predicates aside) */
  constants: string[];
  /** triples of the top-level group (what every solution matches) */
  required: Sparql.Triple[];
  /** the top-level group and each subquery in it (recursively): its required triples and what it projects */
  scopes: Scope[];
}

export interface Scope {
  triples: Sparql.Triple[];
  /** variables the scope shares with the top level (a direct subquery's projection); undefined for the top level and deeper subqueries */
  projected?: string[];
}

const isNamed = (t: unknown): t is Sparql.IriTerm => isObj(t) && t.termType === "NamedNode";
const isPath = (t: unknown): t is Sparql.PropertyPath => isObj(t) && t.type === "path";

function pathIris(p: Sparql.PropertyPath, out: string[]): void {
  for (const item of p.items) {
    if (isPath(item)) pathIris(item, out);
    else if (isNamed(item)) out.push(item.value);
  }
}

function allTriples(v: unknown, out: Sparql.Triple[]): void {
  if (Array.isArray(v)) return v.forEach((x) => allTriples(x, out));
  if (!isObj(v)) return;
  if (v.type === "bgp" && Array.isArray(v.triples)) out.push(...(v.triples as Sparql.Triple[]));
  for (const [k, child] of Object.entries(v)) if (k !== "triples" && k !== "prefixes") allTriples(child, out);
}

/** Triples of the top-level group (bgp and nested plain groups only), and the subqueries found there. */
function requiredTriples(patterns: Sparql.Pattern[] | undefined, subqueries: Sparql.SelectQuery[] = []): Sparql.Triple[] {
  const out: Sparql.Triple[] = [];
  for (const p of patterns ?? []) {
    if (p.type === "bgp") out.push(...p.triples);
    else if (p.type === "group") out.push(...requiredTriples(p.patterns, subqueries));
    else if ((p as { type: string }).type === "query") subqueries.push(p as unknown as Sparql.SelectQuery);
  }
  return out;
}

function scopesOf(where: Sparql.Pattern[] | undefined, depth = 0, projected?: string[]): Scope[] {
  const subqueries: Sparql.SelectQuery[] = [];
  const triples = requiredTriples(where, subqueries);
  // only a direct subquery's projection meets the top level's variables
  return [{ triples, ...(projected && depth === 1 ? { projected } : {}) }, ...subqueries.flatMap((q) => scopesOf(q.where, depth + 1, projectedNames(q)))];
}

function namedNodes(v: unknown, out: Set<string>): void {
  if (Array.isArray(v)) return v.forEach((x) => namedNodes(x, out));
  if (!isObj(v)) return;
  if (v.termType === "NamedNode" && typeof v.value === "string") return void out.add(v.value);
  if (v.termType === "Literal") return; // its datatype is not a term of the query
  for (const [k, child] of Object.entries(v)) if (k !== "prefixes") namedNodes(child, out);
}

export function queryTerms(ast: Sparql.SelectQuery | Sparql.AskQuery, typePredicates: readonly string[]): QueryTerms {
  const triples: Sparql.Triple[] = [];
  allTriples(ast.where, triples);
  const classes = new Set<string>();
  const predicates = new Set<string>();
  for (const t of triples) {
    const viaType = isNamed(t.predicate) ? typePredicates.includes(t.predicate.value) : isPath(t.predicate) && pathHasType(t.predicate, typePredicates);
    if (viaType && isNamed(t.object)) classes.add(t.object.value);
    const ps: string[] = [];
    if (isNamed(t.predicate)) ps.push(t.predicate.value);
    else if (isPath(t.predicate)) pathIris(t.predicate, ps);
    for (const p of ps) if (!typePredicates.includes(p) && !isStandard(p)) predicates.add(p);
  }
  const all = new Set<string>();
  namedNodes(ast.where, all);
  if (ast.type === "query" && ast.queryType === "SELECT") namedNodes((ast as Sparql.SelectQuery).variables, all);
  const constants = [...all].filter((v) => !classes.has(v) && !predicates.has(v) && !typePredicates.includes(v) && !isStandard(v));
  return { classes: [...classes].filter((c) => !isStandard(c)), predicates: [...predicates], constants, required: requiredTriples(ast.where), scopes: scopesOf(ast.where) };
}

function pathHasType(p: Sparql.PropertyPath, typePredicates: readonly string[]): boolean {
  const iris: string[] = [];
  pathIris(p, iris);
  return iris.some((i) => typePredicates.includes(i));
}

/** The names of the projected variables ("*" for SELECT *). */
export function projectedNames(ast: Sparql.SelectQuery): string[] {
  return (ast.variables ?? []).map((v) => {
    if ("termType" in v) return v.termType === "Wildcard" ? "*" : v.value;
    return (v as Sparql.VariableExpression).variable.value;
  });
}

export const isVariable = (t: unknown): t is Sparql.VariableTerm => isObj(t) && (t.termType === "Variable" || t.termType === "BlankNode");
export { isNamed, isPath };
