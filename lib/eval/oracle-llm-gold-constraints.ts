// The constraints of a gold query as the QIR states them: classes (rdf:type, also through rdfs:subClassOf*), FILTER
// comparisons, exclusions (?x != <iri>), negated triples, the projection with aggregates, GROUP BY, HAVING, ORDER BY,
// LIMIT and OFFSET. What the QIR cannot say (arithmetic, BIND, functions besides the comparisons) is left out.
import type { Query } from "sparqljs";
import type { Acc, GoldTriple } from "./oracle-llm-gold-types";

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const XSD = "http://www.w3.org/2001/XMLSchema#";
const NUMERIC = ["integer", "decimal", "double", "float", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger"].map((t) => `${XSD}${t}`);
const DATES = ["date", "dateTime", "gYear"].map((t) => `${XSD}${t}`);

export type GoldValueType = "string" | "number" | "date";
export interface GoldValue {
  text: string;
  type: GoldValueType;
}

export interface GoldComparison {
  variable: string;
  op: "=" | "!=" | "<" | "<=" | ">" | ">=" | "in" | "contains";
  values: GoldValue[];
  other?: string;
}

export interface GoldConstraints {
  /** the triples the QIR states (rdf:type triples became classes; OPTIONAL triples binding a shown variable kept) */
  triples: GoldTriple[];
  negated: GoldTriple[];
  classes: { variable: string; iri: string }[];
  comparisons: GoldComparison[];
  excluded: { variable: string; iris: string[] }[];
  aggregates: { fn: "count" | "sum" | "avg" | "min" | "max"; variable: string; alias: string }[];
  groupBy: string[];
  order: { variable: string; direction: "asc" | "desc"; count?: boolean }[];
  limit?: number;
  offset?: number;
  /** projected variables and aggregate aliases, in order */
  projected: string[];
  /** SELECT (COUNT(…) AS ?n) alone: a "how many" question */
  countOnly: boolean;
  /** the shown variables the plan's columns hold beside the target (set by parseGold) */
  columns?: string[];
}

type Node = { termType?: string; value?: string; datatype?: { value: string }; type?: string; operator?: string; args?: Node[]; aggregation?: string; expression?: Node };

export function valueOf(datatype: string | undefined, text: string): GoldValue {
  if (datatype && NUMERIC.includes(datatype)) return { text, type: "number" };
  if (datatype && DATES.includes(datatype)) return { text: datatype.endsWith("dateTime") ? text.slice(0, 10) : text, type: "date" };
  return { text, type: "string" };
}

const isVar = (n: Node | undefined): n is Node => n?.termType === "Variable";
const isLiteral = (n: Node | undefined): n is Node => n?.termType === "Literal";

/** The variable under STR()/LCASE()/UCASE() wrappers, or undefined. */
function unwrapVar(n: Node | undefined): string | undefined {
  let x = n;
  while (x?.type === "operation" && ["str", "lcase", "ucase"].includes(x.operator ?? "") && x.args?.length === 1) x = x.args[0];
  return isVar(x) ? `?${x.value}` : undefined;
}

/** The literal under LCASE()/UCASE()/STR() wrappers, or undefined. */
function unwrapLiteral(n: Node | undefined): GoldValue | undefined {
  let x = n;
  while (x?.type === "operation" && ["str", "lcase", "ucase"].includes(x.operator ?? "") && x.args?.length === 1) x = x.args[0];
  return isLiteral(x) ? valueOf(x.datatype?.value, x.value ?? "") : undefined;
}

const FLIP: Record<string, GoldComparison["op"]> = { "<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "=", "!=": "!=" };

/** A FILTER expression as comparisons and exclusions; false when some part cannot be said in the QIR. */
function readFilter(e: Node, out: { comparisons: GoldComparison[]; excluded: Map<string, string[]> }): boolean {
  if (e.type !== "operation" || !e.args) return false;
  const op = e.operator ?? "";
  const [a, b] = e.args;
  if (op === "&&") return e.args.map((x) => readFilter(x, out)).every(Boolean);
  if (op === "||") {
    // ?c = "A" || ?c = "B" → ?c in (A, B)
    const arms: GoldComparison[] = [];
    const ok = e.args.every((x) => readFilter(x, { comparisons: arms, excluded: new Map() }));
    const v = arms[0]?.variable;
    if (!ok || !v || !arms.every((c) => c.variable === v && (c.op === "=" || c.op === "in") && !c.other)) return false;
    out.comparisons.push({ variable: v, op: "in", values: arms.flatMap((c) => c.values) });
    return true;
  }
  if (op === "contains") {
    const v = unwrapVar(a);
    const lit = unwrapLiteral(b);
    if (!v || !lit) return false;
    out.comparisons.push({ variable: v, op: "contains", values: [{ text: lit.text, type: "string" }] });
    return true;
  }
  if (op in FLIP) {
    const left = unwrapVar(a);
    const right = unwrapVar(b);
    const wrapped = (n: Node | undefined) => n?.type === "operation";
    if (left && right) {
      // STR(?a) < STR(?b) compares text, which the QIR's variable comparison does not say
      if (wrapped(a) || wrapped(b)) return false;
      out.comparisons.push({ variable: left, op: op as GoldComparison["op"], values: [], other: right });
      return true;
    }
    const v = left ?? right;
    const other = left ? b : a;
    if (!v) return false;
    if (other?.termType === "NamedNode" && op === "!=") {
      out.excluded.set(v, [...(out.excluded.get(v) ?? []), other.value as string]);
      return true;
    }
    const lit = unwrapLiteral(other);
    if (!lit) return false;
    out.comparisons.push({ variable: v, op: left ? (op as GoldComparison["op"]) : FLIP[op], values: [lit] });
    return true;
  }
  return false;
}

/** The first aggregate inside an expression (ROUND(AVG(?x) * 100) / 100 → AVG(?x)), with its variable. */
function findAggregate(e: Node | undefined): { fn: string; variable?: string } | undefined {
  if (!e) return undefined;
  if (e.type === "aggregate") return { fn: e.aggregation ?? "", variable: isVar(e.expression) ? `?${e.expression.value}` : undefined };
  for (const x of e.args ?? []) {
    const f = findAggregate(x);
    if (f) return f;
  }
  return undefined;
}

const AGGS = ["count", "sum", "avg", "min", "max"] as const;

/** COUNT(*) (sparqljs: an aggregate whose expression is the wildcard, an empty object). */
function isCountAll(e: Node): boolean {
  const agg = e.type === "aggregate" ? e : undefined;
  const inner = agg?.expression as { termType?: string; type?: string } | undefined;
  // sparqljs gives COUNT(*) a Wildcard term (termType "Wildcard" on its prototype; older versions an empty object)
  return agg?.aggregation === "count" && (inner?.termType === "Wildcard" || (inner?.termType === undefined && inner?.type === undefined));
}

export function goldConstraints(q: Query, acc: Acc): GoldConstraints {
  // classes: ?x a <C>, and ?x a ?c . ?c rdfs:subClassOf* <C>
  const classes: GoldConstraints["classes"] = [];
  const splitClasses = (triples: GoldTriple[]) =>
    triples.filter((t) => {
      if (t.predicate !== RDF_TYPE || t.subject.kind !== "var") return true;
      if (t.object.kind === "iri") classes.push({ variable: t.subject.value, iri: t.object.value });
      else if (t.object.kind === "var" && acc.subclassOf.has(t.object.value)) classes.push({ variable: t.subject.value, iri: acc.subclassOf.get(t.object.value) as string });
      else return true;
      return false;
    });
  let triples = splitClasses(acc.triples);
  const negated = splitClasses(acc.negated);

  // projection and aggregates
  const projected: string[] = [];
  const aggregates: GoldConstraints["aggregates"] = [];
  const allVars = () => [...new Set([...triples, ...acc.optional].flatMap((t) => [t.subject, t.object]).filter((x) => x.kind === "var").map((x) => x.value))];
  const groupBy: string[] = [];
  let countOnly = false;
  if (q.queryType === "SELECT") {
    for (const g of (q as { group?: { expression: Node }[] }).group ?? []) if (isVar(g.expression)) groupBy.push(`?${g.expression.value}`);
    const counted = (v: string | undefined) => v ?? allVars().find((x) => !groupBy.includes(x)) ?? allVars()[0] ?? "?x";
    for (const v of q.variables as unknown as Node[]) {
      if (isVar(v)) projected.push(`?${v.value}`);
      else if ((v as { termType?: string }).termType === "Wildcard") projected.push(...allVars());
      else {
        const { expression, variable } = v as unknown as { expression: Node; variable: Node };
        const agg = findAggregate(expression);
        // the shape tags (parseGold): a computed projection is a "bind", an aggregate other than COUNT an "aggregate"
        if (expression.type !== "aggregate") acc.features.add("bind");
        if (agg && agg.fn !== "count") acc.features.add("aggregate");
        // arithmetic of its own, or an aggregate of a computed value: not a QIR aggregate
        if (!agg || !AGGS.includes(agg.fn as (typeof AGGS)[number]) || (agg.variable === undefined && !isCountAll(expression))) continue;
        const alias = `?${variable.value}`;
        aggregates.push({ fn: agg.fn as (typeof AGGS)[number], variable: counted(agg.variable), alias });
        projected.push(alias);
      }
    }
    // SELECT (COUNT(?x) AS ?n) alone, no groups: "how many"
    if (aggregates.length === 1 && projected.length === 1 && aggregates[0].fn === "count" && groupBy.length === 0) {
      countOnly = true;
      projected.splice(0, 1, aggregates[0].variable);
      aggregates.length = 0;
    }
  }
  const aliasOf = (e: Node) => {
    const agg = findAggregate(e);
    if (!agg) return undefined;
    return aggregates.find((a) => a.fn === agg.fn && (agg.variable === undefined || a.variable === agg.variable))?.alias;
  };

  // OPTIONAL triples that bind a shown variable (and the chain leading to it) are part of what is asked
  const shown = new Set(projected);
  const outer = new Set(allVars().filter((v) => triples.some((t) => t.subject.value === v || t.object.value === v)));
  let optional = acc.optional.filter((t) => [t.subject, t.object].some((x) => x.kind === "var" && shown.has(x.value) && !outer.has(x.value)));
  for (let grew = true; grew; ) {
    const vars = new Set(optional.flatMap((t) => [t.subject.value, t.object.value]));
    const more = acc.optional.filter((t) => !optional.includes(t) && [t.subject, t.object].some((x) => x.kind === "var" && vars.has(x.value) && !outer.has(x.value)));
    grew = more.length > 0;
    optional = [...optional, ...more];
  }
  triples = [...triples, ...splitClasses(optional)];

  // FILTERs and HAVING
  const comparisons: GoldComparison[] = [];
  const excludedMap = new Map<string, string[]>();
  for (const f of acc.filters) readFilter(f as Node, { comparisons, excluded: excludedMap });
  for (const h of ((q as { having?: Node[] }).having ?? []) as Node[]) {
    const [a, b] = h.args ?? [];
    const alias = a ? aliasOf(a) : undefined;
    const lit = unwrapLiteral(b);
    if (h.type === "operation" && alias && lit && h.operator && h.operator in FLIP) comparisons.push({ variable: alias, op: h.operator as GoldComparison["op"], values: [lit] });
  }

  // ORDER BY
  const order: GoldConstraints["order"] = [];
  for (const o of ((q as { order?: { expression: Node; descending?: boolean }[] }).order ?? [])) {
    const direction = o.descending ? "desc" : "asc";
    if (isVar(o.expression)) order.push({ variable: `?${o.expression.value}`, direction });
    else {
      const alias = aliasOf(o.expression);
      const agg = findAggregate(o.expression);
      if (alias) order.push({ variable: alias, direction });
      else if (agg?.fn === "count") order.push({ variable: agg.variable ?? allVars().find((x) => !groupBy.includes(x)) ?? "?x", direction, count: true });
    }
  }
  const mods = q as { limit?: number; offset?: number };
  return {
    triples,
    negated,
    classes,
    comparisons,
    excluded: [...excludedMap].map(([variable, iris]) => ({ variable, iris })),
    aggregates,
    groupBy: groupBy.filter((g) => allVars().includes(g)),
    order,
    ...(mods.limit !== undefined ? { limit: mods.limit } : {}),
    ...(mods.offset !== undefined && mods.offset > 0 ? { offset: mods.offset } : {}),
    projected,
    countOnly,
  };
}
