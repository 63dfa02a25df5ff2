// A query's *template*: what stays of a SPARQL query when the things a question names are taken out, so that two
// questions "of the same kind" on a KG have equal templates. Used to deduplicate generated examples by structure and,
// in the bench, to ask whether the pool holds an example of the kind a person asked (template recall).
//
// Definition (docs/onboarding.md says the same):
// - IRIs of individuals → <IRI>; classes (objects of rdf:type / the type predicates), predicates (also inside property
//   paths) and the rdf/rdfs/owl/xsd vocabulary are kept.
// - literals → typed placeholders: STR (plain, xsd:string, language-tagged), NUM (numeric datatypes), DATE (xsd date
//   and time types), BOOL, LIT (any other datatype).
// - variables (and aggregate aliases) renamed ?v0, ?v1… in order of first appearance in the canonical form.
// - a group's basic graph patterns are one set (order and repeated triples do not matter); its FILTERs a sorted set;
//   FILTER(?v = constant) with ?v not projected is folded into the triples (same question, other spelling).
// - a sequence path p1/p2 counts as the two triples it abbreviates; a type triple on an individual IRI is dropped, and
//   so is `?x a C` when ?x is the subject of a predicate whose subjects on this KG are all Cs (`impliedTypes`): people
//   leave that type out, and with or without it the query answers the same.
// - DISTINCT/REDUCED, PREFIX/BASE and the argument of COUNT (*, ?x, DISTINCT ?x) are ignored; LIMIT 1 is kept as is,
//   any other LIMIT as "LIMIT N", OFFSET as "OFFSET N". Everything else (OPTIONAL, UNION, MINUS, subqueries, GROUP BY,
//   HAVING, ORDER BY and directions, aggregates, property paths, VALUES, BIND) is kept in its place.
import type * as sparqljs from "sparqljs";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { NS } from "@/lib/kg/profile";

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;
const STANDARD = [NS.rdf, NS.rdfs, NS.owl, NS.xsd];
const RDF_TYPE = `${NS.rdf}type`;
const NUMERIC = /#(integer|decimal|double|float|int|long|short|byte|nonNegativeInteger|positiveInteger|negativeInteger|nonPositiveInteger|unsignedInt|unsignedLong|unsignedShort)$/;
const DATE = /#(date|dateTime|dateTimeStamp|gYear|gYearMonth|time|gMonth|gDay|gMonthDay)$/;

export interface TemplateOptions {
  /** predicates that type things (rdf:type by default): their objects are classes and kept */
  typePredicates?: readonly string[];
  /** predicate → the one class every subject of it has on this KG (`impliedTypes` of a profile): its type triple is implied */
  impliedTypes?: ReadonlyMap<string, string>;
}

/**
 * The predicates that imply their subject's class, by the profile: used by the instances of exactly one class and by
 * no resource without a class (the KG's own type predicates and the rdf/rdfs/owl vocabulary never do).
 */
export function impliedTypes(profile: { classes: { iri: string; predicates: { iri: string }[] }[]; untyped?: { predicates: { iri: string }[] } }): Map<string, string> {
  const classesOf = new Map<string, Set<string>>();
  for (const c of profile.classes) for (const p of c.predicates) classesOf.set(p.iri, (classesOf.get(p.iri) ?? new Set()).add(c.iri));
  for (const p of profile.untyped?.predicates ?? []) classesOf.set(p.iri, (classesOf.get(p.iri) ?? new Set()).add(""));
  const out = new Map<string, string>();
  for (const [p, cs] of classesOf) if (cs.size === 1 && !cs.has("") && !STANDARD.some((ns) => p.startsWith(ns))) out.set(p, [...cs][0]);
  return out;
}

/** The template of a query, or undefined when it does not parse. */
export function queryTemplate(sparql: string, options: TemplateOptions = {}): string | undefined {
  let ast: sparqljs.SparqlQuery;
  try {
    ast = parseSparql(sparql, { skipValidation: true });
  } catch {
    return undefined;
  }
  if (ast.type !== "query") return undefined;
  const types = new Set(options.typePredicates?.length ? options.typePredicates : [RDF_TYPE]);
  // first pass with every variable written "?" fixes the order; the second names them in that order
  const names = new Map<string, string>();
  const implied = options.impliedTypes ?? new Map<string, string>();
  const masked = new Renderer(types, () => "?", implied);
  masked.query(ast);
  for (const v of masked.seen) if (!names.has(v)) names.set(v, `?v${names.size}`);
  return new Renderer(
    types,
    (v) => {
      if (!names.has(v)) names.set(v, `?v${names.size}`);
      return names.get(v) as string;
    },
    implied,
  ).query(ast);
}

/** Placeholder for a literal by its datatype. */
export function literalPlaceholder(term: { datatype?: { value: string }; language?: string }): string {
  if (term.language) return "STR";
  const dt = term.datatype?.value ?? "";
  if (!dt || dt === `${NS.xsd}string` || dt === `${NS.rdf}langString`) return "STR";
  if (NUMERIC.test(dt)) return "NUM";
  if (DATE.test(dt)) return "DATE";
  if (dt === `${NS.xsd}boolean`) return "BOOL";
  return "LIT";
}

class Renderer {
  /** variables in the order the rendering met them */
  readonly seen: string[] = [];
  private projected = new Set<string>();

  constructor(
    private readonly types: Set<string>,
    private readonly rename: (v: string) => string,
    private readonly implied: ReadonlyMap<string, string>,
  ) {}

  private v(name: string): string {
    this.seen.push(name);
    return this.rename(name);
  }

  private term(t: unknown, role: "s" | "p" | "o" | "class" | "expr"): string {
    if (!isObj(t)) return String(t);
    switch (t.termType) {
      case "Variable":
        return this.v(String(t.value));
      case "BlankNode":
        return this.v(`_:${String(t.value)}`);
      case "NamedNode": {
        const value = String(t.value);
        if (role === "p" || role === "class" || STANDARD.some((ns) => value.startsWith(ns))) return `<${value}>`;
        return "<IRI>";
      }
      case "Literal":
        return literalPlaceholder(t as { datatype?: { value: string }; language?: string });
      case "Wildcard":
        return "*";
    }
    if (t.type === "path") return this.path(t);
    return this.expr(t);
  }

  private path(p: Node): string {
    const items = (p.items as unknown[]).map((i) => (isObj(i) && i.type === "path" ? this.path(i) : this.term(i, "p")));
    const op = String(p.pathType);
    if (op === "/" || op === "|") return `(${items.join(op)})`;
    if (op === "^" || op === "!") return `${op}${items.join("")}`;
    return `(${items.join("")})${op}`;
  }

  /**
   * Triples as the template counts them: a sequence path p1/p2 is the chain it abbreviates (a fresh variable in the
   * middle), and a type triple on an individual IRI is dropped (it restates what the IRI already is).
   */
  private normalTriples(triples: Node[]): Node[] {
    const out: Node[] = [];
    for (const t of triples) {
      const p = t.predicate as Node;
      if (p.type === "path" && p.pathType === "/" && (p.items as Node[]).every((i) => i.termType === "NamedNode")) {
        const items = p.items as Node[];
        let subject = t.subject as Node;
        items.forEach((item, i) => {
          const object = i === items.length - 1 ? (t.object as Node) : { termType: "Variable", value: `_path${this.pathVars++}` };
          out.push({ subject, predicate: item, object });
          subject = object;
        });
        continue;
      }
      const s = t.subject as Node;
      if (s.termType === "NamedNode" && p.termType === "NamedNode" && this.types.has(String(p.value))) continue;
      out.push(t);
    }
    if (this.implied.size === 0) return out;
    // ?x a C beside ?x p … where every subject of p is a C: the type adds nothing
    const isType = (t: Node) => (t.predicate as Node).termType === "NamedNode" && this.types.has(String((t.predicate as Node).value));
    const impliedBy = new Set(out.flatMap((t) => ((t.subject as Node).termType === "Variable" && (t.predicate as Node).termType === "NamedNode" && !isType(t) && this.implied.has(String((t.predicate as Node).value)) ? [`${String((t.subject as Node).value)} ${this.implied.get(String((t.predicate as Node).value))}`] : [])));
    return out.filter((t) => !(isType(t) && (t.subject as Node).termType === "Variable" && (t.object as Node).termType === "NamedNode" && impliedBy.has(`${String((t.subject as Node).value)} ${String((t.object as Node).value)}`)));
  }

  private pathVars = 0;

  private triple(t: Node): string {
    const p = t.predicate as Node;
    const isType = p.termType === "NamedNode" && this.types.has(String(p.value));
    return `${this.term(t.subject, "s")} ${this.term(p, "p")} ${this.term(t.object, isType ? "class" : "o")}`;
  }

  private expr(e: unknown): string {
    if (!isObj(e)) return String(e);
    if (e.termType) return this.term(e, "expr");
    if (Array.isArray(e)) return `(${e.map((x) => this.expr(x)).join(", ")})`;
    if (e.type === "operation") {
      const args = (e.args as unknown[]).map((a) => (isObj(a) && (a.type === "group" || a.type === "bgp") ? `{${this.group([a as Node])}}` : Array.isArray(a) ? `(${a.map((x) => this.expr(x)).join(", ")})` : this.expr(a)));
      return `${String(e.operator)}(${args.join(", ")})`;
    }
    if (e.type === "functionCall") {
      const fn = isObj(e.function) ? String(e.function.value) : String(e.function);
      return `<${fn}>(${(e.args as unknown[]).map((a) => this.expr(a)).join(", ")})`;
    }
    if (e.type === "aggregate") {
      const agg = String(e.aggregation).toUpperCase();
      if (agg === "COUNT") {
        // COUNT(*), COUNT(?x) and COUNT(DISTINCT ?x) ask the same "how many"
        return "COUNT(?)";
      }
      return `${agg}(${this.expr(e.expression)})`;
    }
    if (e.type === "query") return `{${this.query(e as unknown as sparqljs.SparqlQuery)}}`;
    return JSON.stringify(e);
  }

  /** Folds FILTER(?v = const) into the triples when ?v is not projected and occurs in plain triples and that filter only. */
  private fold(patterns: Node[]): Node[] {
    const subst = new Map<string, { constant: Node; filter: Node }>();
    for (const f of patterns) {
      const e = f.type === "filter" ? (f.expression as Node) : undefined;
      if (e?.type !== "operation" || e.operator !== "=") continue;
      const [a, b] = e.args as Node[];
      const [v, c] = a?.termType === "Variable" ? [a, b] : [b, a];
      if (v?.termType !== "Variable" || !c || (c.termType !== "Literal" && c.termType !== "NamedNode")) continue;
      const name = String(v.value);
      if (!this.projected.has(name) && !subst.has(name)) subst.set(name, { constant: c, filter: f });
    }
    const mentions = (p: Node, name: string) => JSON.stringify(p).includes(`"termType":"Variable","value":${JSON.stringify(name)}`);
    for (const [name, { filter }] of [...subst]) {
      if (patterns.some((p) => p !== filter && p.type !== "bgp" && mentions(p, name))) subst.delete(name);
    }
    if (subst.size === 0) return patterns;
    const dropped = new Set([...subst.values()].map((x) => x.filter));
    const replace = (t: Node): Node => (t.termType === "Variable" && subst.has(String(t.value)) ? (subst.get(String(t.value))?.constant as Node) : t);
    return patterns.flatMap((p) => {
      if (dropped.has(p)) return [];
      if (p.type === "bgp") return [{ ...p, triples: (p.triples as Node[]).map((t) => ({ ...t, subject: replace(t.subject as Node), object: replace(t.object as Node) })) }];
      return [p];
    });
  }

  /** Items rendered apart and sorted, so that their variables are met in the sorted order; repeats dropped if `dedupe`. */
  private sortedSet(items: (() => string)[], dedupe: boolean): string[] {
    const rendered = items.map((render) => {
      const start = this.seen.length;
      const text = render();
      return { text, vars: this.seen.splice(start) };
    });
    rendered.sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
    const out: string[] = [];
    for (const r of rendered) {
      // a repeated triple adds nothing; its variables are still met (with "?" masks, equal texts may differ)
      this.seen.push(...r.vars);
      if (!dedupe || out.at(-1) !== r.text) out.push(r.text);
    }
    return out;
  }

  /** A group's patterns: one sorted set of triples, sorted filters, the rest in order. */
  group(patterns: Node[]): string {
    const folded = this.fold(patterns.flatMap((p) => (p.type === "group" && !(p as { patterns?: unknown }).patterns ? [] : [p])));
    const sorted = (items: (() => string)[]) => this.sortedSet(items, true);
    const triples = sorted(this.normalTriples(folded.flatMap((p) => (p.type === "bgp" ? (p.triples as Node[]) : []))).map((t) => () => this.triple(t)));
    const filters = sorted(folded.flatMap((p) => (p.type === "filter" ? [() => `FILTER ${this.expr(p.expression)}`] : [])));
    const rest: string[] = [];
    for (const p of folded) {
      if (p.type === "bgp" || p.type === "filter") continue;
      if (p.type === "group") {
        // a plain nested group is the same as its content
        rest.push(`{${this.group(p.patterns as Node[])}}`);
      } else if (p.type === "optional") rest.push(`OPTIONAL {${this.group(p.patterns as Node[])}}`);
      else if (p.type === "minus") rest.push(`MINUS {${this.group(p.patterns as Node[])}}`);
      else if (p.type === "union") rest.push(`UNION(${(p.patterns as Node[]).map((g) => `{${this.group(g.type === "group" ? (g.patterns as Node[]) : [g])}}`).join(" ")})`);
      else if (p.type === "graph") rest.push(`GRAPH {${this.group(p.patterns as Node[])}}`);
      else if (p.type === "service") rest.push(`SERVICE {${this.group(p.patterns as Node[])}}`);
      else if (p.type === "bind") rest.push(`BIND(${this.expr(p.expression)} AS ${this.term(p.variable, "expr")})`);
      else if (p.type === "values") {
        const rows = p.values as Record<string, Node | undefined>[];
        const vars = Object.keys(rows[0] ?? {});
        rest.push(`VALUES(${vars.map((v) => this.v(v.replace(/^\?/, ""))).join(" ")}){${rows.map((r) => vars.map((v) => (r[v] ? this.term(r[v], "o") : "UNDEF")).join(" ")).join("|")}}`);
      } else if (p.type === "query") rest.push(`{${this.query(p as unknown as sparqljs.SparqlQuery)}}`);
      else rest.push(JSON.stringify(p));
    }
    return [triples.join(" . "), filters.join(" "), rest.join(" ")].filter(Boolean).join(" ");
  }

  query(q: sparqljs.SparqlQuery): string {
    if (q.type !== "query") return "";
    const outerProjected = this.projected;
    const parts: string[] = [];
    if (q.queryType === "SELECT") {
      const vars = (q as sparqljs.SelectQuery).variables ?? [];
      this.projected = new Set(vars.flatMap((v) => (isObj(v) && (v as Node).termType === "Variable" ? [String((v as Node).value)] : [])));
      // the columns are a set: their order does not change the question
      const shown = vars.map((v) => () => {
        const n = v as unknown as Node;
        if (n.termType) return this.term(n, "expr");
        return `(${this.expr(n.expression)} AS ${this.term(n.variable, "expr")})`;
      });
      parts.push(`SELECT ${this.sortedSet(shown, false).join(" ")}`);
    } else parts.push(q.queryType);
    parts.push(`WHERE {${this.group((q.where ?? []) as unknown as Node[])}}`);
    const sel = q as sparqljs.SelectQuery;
    if (sel.group?.length) parts.push(`GROUP BY ${sel.group.map((g) => this.expr(g.expression)).join(" ")}`);
    if (sel.having?.length) parts.push(`HAVING ${sel.having.map((h) => this.expr(h)).join(" ")}`);
    if (sel.order?.length) parts.push(`ORDER BY ${sel.order.map((o) => `${o.descending ? "DESC" : "ASC"}(${this.expr(o.expression)})`).join(" ")}`);
    if (sel.limit !== undefined) parts.push(sel.limit === 1 ? "LIMIT 1" : "LIMIT N");
    if (sel.offset) parts.push("OFFSET N");
    this.projected = outerProjected;
    return parts.join(" ");
  }
}
