// The QIR's constraints as sparqljs AST parts (pure): typed literals, class patterns, FILTERs, NOT EXISTS groups, the
// exclusion, and the SELECT's projection with GROUP BY / aggregates / HAVING / ORDER BY / LIMIT / OFFSET.
//
// Decisions:
// - Text comparisons use STR(), so a language tag or xsd:string never makes "Alfama" ≠ "Alfama"@en; "contains" is
//   case-insensitive. Numbers compare as xsd:decimal, dates as xsd:date; a bare year compared with a date compares
//   YEAR(?d) (a KG that stores full dates answers "after 2019" too).
// - Negated triples are grouped by the variables only they use: connected ones form one FILTER NOT EXISTS, each with
//   the classes and values of its own variables.
// - A superlative asking for a value ("When was the first film released?") also shows the thing ranked.
// - Aggregates over the whole answer (no group) get a hidden COUNT of the aggregated variable (SUPPORT_VAR): an empty
//   set is "no answer", not SUM = 0 (query-planner.ts drops that column from the answer).
import type * as Sparql from "sparqljs";
import type { Term } from "@/lib/kg/types";
import { aggregate, bgp, filter, literalTerm, namedNode, operation, variable } from "@/lib/pipeline/common/sparql-ast";
import type { LinkedClass, LinkedLiteral, Qir, QirComparison, QirValue } from "../state";
import { classPattern, literalOf } from "./binding-sources";

const XSD = "http://www.w3.org/2001/XMLSchema#";
/** The hidden column counting what an ungrouped aggregate ran over. */
export const SUPPORT_VAR = "support_rows";

type Expr = Sparql.Expression;

/** A QIR value as a typed SPARQL literal. */
export function typedLiteral(v: QirValue): Sparql.LiteralTerm {
  if (v.type === "number") return literalTerm(v.text, { datatype: `${XSD}${/[.eE]/.test(v.text) ? "decimal" : "integer"}` });
  if (v.type === "date") return literalTerm(v.text, { datatype: /^\d{4}$/.test(v.text) ? `${XSD}integer` : `${XSD}date` });
  return literalTerm(v.text);
}

/** How a linked value stands in a triple: its one KG term, or a fresh variable with VALUES / an equality FILTER. */
export interface LiteralBinding {
  term: Sparql.LiteralTerm | Sparql.VariableTerm;
  patterns: Sparql.Pattern[];
}

export function literalBinding(l: LinkedLiteral, freshName: string): LiteralBinding {
  if (l.terms.length === 1) return { term: literalOf(l.terms[0]), patterns: [] };
  const v = variable(freshName);
  if (l.terms.length > 1) return { term: v, patterns: [{ type: "values", values: l.terms.map((t: Term) => ({ [`?${freshName}`]: literalOf(t) })) } as Sparql.ValuesPattern] };
  // a number or date the KG does not store as such: compare with it
  return { term: v, patterns: [filter(compare(v, "=", { text: l.mention, type: l.type }))] };
}

/** One comparison of an expression with a typed value. */
function compare(left: Expr, op: string, v: QirValue): Expr {
  if (v.type === "string") {
    const str = operation("str", left);
    if (op === "contains") return operation("contains", operation("lcase", str), literalTerm(v.text.toLowerCase()));
    return operation(op, str, literalTerm(v.text));
  }
  // a year against a stored date: compare the year
  if (v.type === "date" && /^\d{4}$/.test(v.text)) return operation(op, operation("year", left), literalTerm(v.text, { datatype: `${XSD}integer` }));
  return operation(op, left, typedLiteral(v));
}

/** The comparison as an expression over `term` (a variable, or an aggregate expression for HAVING). */
export function comparisonExpression(c: QirComparison, left: Expr, other?: Expr): Expr {
  if (other) return operation(c.op, left, other);
  if (c.op === "between") return operation("&&", compare(left, ">=", c.values[0]), compare(left, "<=", c.values[1]));
  if (c.op === "in") {
    const arms = c.values.map((v) => compare(left, "=", v));
    return arms.length === 1 ? arms[0] : arms.reduce((a, b) => operation("||", a, b));
  }
  return compare(left, c.op, c.values[0]);
}

/** FILTER(?v NOT IN (<iri> …)): "what else", "other than X". */
export function exclusionFilter(v: Sparql.VariableTerm, iris: string[]): Sparql.FilterPattern | undefined {
  if (iris.length === 0) return undefined;
  return filter(operation("notin", v, iris.map((i) => namedNode(i)) as unknown as Sparql.Term[]));
}

export function classPatterns(vars: string[], classes: Record<string, LinkedClass>, nameOf: (term: string) => string | undefined, typePredicate: string | undefined): Sparql.Triple[] {
  if (!typePredicate) return [];
  return vars.flatMap((v) => {
    const c = classes[v];
    const name = nameOf(v);
    return c && name ? [classPattern(variable(name), c, typePredicate)] : [];
  });
}

/**
 * Negated triple patterns grouped by the variables only they use (connected ones together): one NOT EXISTS each.
 * `local` says whether a SPARQL variable name occurs only in negated patterns.
 */
export function negationGroups(patterns: Sparql.Triple[], local: (name: string) => boolean): Sparql.Triple[][] {
  const groups: { patterns: Sparql.Triple[]; vars: Set<string> }[] = [];
  const localVars = (t: Sparql.Triple) => [t.subject, t.object].filter((x) => x.termType === "Variable" && local(x.value)).map((x) => x.value);
  for (const t of patterns) {
    const mine = new Set(localVars(t));
    const touching = groups.filter((g) => [...mine].some((v) => g.vars.has(v)));
    const merged = { patterns: [...touching.flatMap((g) => g.patterns), t], vars: new Set([...touching.flatMap((g) => [...g.vars]), ...mine]) };
    for (const g of touching) groups.splice(groups.indexOf(g), 1);
    groups.push(merged);
  }
  return groups.map((g) => g.patterns);
}

export function notExists(patterns: Sparql.Pattern[]): Sparql.FilterPattern {
  return filter(operation("notexists", { type: "group", patterns } as Sparql.GroupPattern));
}

export interface SelectShape {
  /** SPARQL names of the projected plain variables (target first), and of the aggregates with their expressions */
  plain: string[];
  aggregates: { name: string; fn: string; of: string; distinct: boolean }[];
  group: string[];
  having: Expr[];
  order: { expression: Expr; descending: boolean }[];
  limit?: number;
  offset?: number;
  /** ungrouped aggregates: the hidden support count's variable */
  support?: string;
}

/** The SELECT clauses the QIR's aggregates, groups, order and window ask for (names already SPARQL variable names). */
export function selectShape(qir: Qir, nameOf: (term: string) => string | undefined, rowLimit: number): SelectShape {
  const aggs = (qir.aggregates ?? []).flatMap((a) => {
    const name = nameOf(a.alias);
    const of = nameOf(a.variable);
    return name && of ? [{ name, fn: a.fn, of, alias: a.alias }] : [];
  });
  const group = [...new Set((qir.groupBy ?? []).map(nameOf).filter((n): n is string => !!n))];
  // counting distinct values, except the group's own variable: "per neighbourhood, how many rows" counts its rows
  const distinct = (a: { fn: string; of: string }) => a.fn === "count" && !group.includes(a.of);
  const aggExpr = (a: { fn: string; of: string }) => aggregate(a.fn, variable(a.of), distinct(a));
  const byAlias = new Map((qir.aggregates ?? []).map((a, i) => [a.alias, aggs[i]]));
  const shown = [qir.target, ...(qir.columns ?? [])].filter((v): v is string => !!v);
  const plain = [...new Set(shown.filter((v) => !byAlias.has(v)).map(nameOf).filter((n): n is string => !!n))];
  // "When was the first film released?": a ranked value alone does not say what it belongs to (nor can a follow-up
  // such as "what else …" refer to it), so the thing it is the value of is shown before it
  const [first] = qir.order ?? [];
  if (qir.limit !== undefined && first && !first.count && first.variable === qir.target && aggs.length === 0) {
    const owner = qir.triples.find((t) => t.object === qir.target && t.subject.startsWith("?"))?.subject;
    const ownerName = owner ? nameOf(owner) : undefined;
    if (ownerName && !plain.includes(ownerName)) plain.unshift(ownerName);
  }
  const countOrder = (qir.order ?? []).some((o) => o.count);
  // ordering by "how many" groups by what is shown
  const grouped = aggs.length > 0 || countOrder;
  const order = (qir.order ?? []).flatMap((o) => {
    const agg = byAlias.get(o.variable);
    const name = nameOf(o.variable);
    if (o.count && name) return [{ expression: aggregate("count", variable(name), true) as Expr, descending: o.direction === "desc" }];
    if (agg) return [{ expression: variable(agg.name) as Expr, descending: o.direction === "desc" }];
    return name ? [{ expression: variable(name) as Expr, descending: o.direction === "desc" }] : [];
  });
  const having = (qir.comparisons ?? []).flatMap((c) => {
    const agg = byAlias.get(c.variable);
    if (!agg) return [];
    const other = c.other ? byAlias.get(c.other) : undefined;
    return [comparisonExpression(c, aggExpr(agg), other ? aggExpr(other) : c.other ? variable(nameOf(c.other) ?? "x") : undefined)];
  });
  const ungrouped = aggs.length > 0 && group.length === 0 && plain.length === 0;
  // ties under a window are broken by what is shown, so every engine returns the same rows
  if (order.length && qir.limit !== undefined) for (const n of plain) if (!order.some((o) => (o.expression as Sparql.VariableTerm).value === n)) order.push({ expression: variable(n), descending: false });
  return {
    plain,
    aggregates: aggs.map(({ name, fn, of }) => ({ name, fn, of, distinct: distinct({ fn, of }) })),
    group: grouped ? [...new Set([...group, ...plain])] : [],
    having,
    order,
    // an ordered answer is sorted whole (some engines refuse to sort under a large LIMIT); others are cut at the row limit
    ...(qir.limit !== undefined ? { limit: qir.limit } : ungrouped || order.length ? {} : { limit: rowLimit }),
    ...(qir.offset !== undefined ? { offset: qir.offset } : {}),
    ...(ungrouped && aggs[0] ? { support: aggs[0].of } : {}),
  };
}

/** SELECT DISTINCT ?plain… (AGG(?x) AS ?alias)… WHERE … GROUP BY … HAVING … ORDER BY … LIMIT … OFFSET … */
export function shapedSelect(shape: SelectShape, where: Sparql.Pattern[]): Sparql.SelectQuery {
  const variables: Sparql.SelectQuery["variables"] = [
    ...shape.plain.map((n) => variable(n)),
    ...shape.aggregates.map((a) => ({ expression: aggregate(a.fn, variable(a.of), a.distinct), variable: variable(a.name) })),
    ...(shape.support ? [{ expression: aggregate("count", variable(shape.support)), variable: variable(SUPPORT_VAR) }] : []),
  ] as Sparql.SelectQuery["variables"];
  return {
    type: "query",
    queryType: "SELECT",
    prefixes: {},
    variables,
    distinct: true,
    where,
    ...(shape.group.length ? { group: shape.group.map((g) => ({ expression: variable(g) })) } : {}),
    ...(shape.having.length ? { having: shape.having } : {}),
    ...(shape.order.length ? { order: shape.order } : {}),
    ...(shape.limit !== undefined ? { limit: shape.limit } : {}),
    ...(shape.offset !== undefined ? { offset: shape.offset } : {}),
  } as Sparql.SelectQuery;
}

/** True when no pattern is needed beyond `bgp(...)`: helper for callers assembling WHERE. */
export const where = (triples: Sparql.Triple[], extra: Sparql.Pattern[]): Sparql.Pattern[] => (triples.length ? [bgp(triples), ...extra] : extra);
