// The oracle's reading of a gold SPARQL query: its mandatory basic graph pattern, target, question type and shape tag,
// and the constraints the QIR can state (classes, literal values, comparisons, negation, exclusion, aggregates,
// groups, order, limit/offset, shown columns) — what a perfect QIR agent would write for the question.
import type { Pattern, Query, Triple } from "sparqljs";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { AppError } from "@/lib/errors";
import { goldConstraints, type GoldConstraints } from "./oracle-llm-gold-constraints";
import { type Acc, type GoldShape, type GoldTerm, type GoldTriple, type PathLike } from "./oracle-llm-gold-types";

export { GOLD_SHAPES, type Acc, type GoldShape, type GoldTerm, type GoldTriple } from "./oracle-llm-gold-types";

// why: one tag per question, the hardest feature wins, so a breakdown row says what kind of question it was
const SHAPE_RANK: GoldShape[] = ["subquery", "aggregate", "order", "bind", "values", "negation", "filter", "optional", "union", "path", "other", "count", "ask", "bgp"];

export interface GoldPlan extends GoldConstraints {
  queryType: "SELECT" | "ASK";
  triples: GoldTriple[];
  /** the variable the question asks for ("?x"), null for ASK */
  target: string | null;
  questionType: "factoid" | "count" | "boolean";
  shape: GoldShape;
  /** every shape feature seen (shape is the hardest of these) */
  features: GoldShape[];
  /** IRIs in subject/object position, of the triples and the negated triples (need labels and types) */
  entityIris: string[];
  predicateIris: string[];
}

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
const SUBCLASS_OF = "http://www.w3.org/2000/01/rdf-schema#subClassOf";
export const isRdfType = (iri: string) => iri === RDF_TYPE;

function term(t: { termType: string; value: string; datatype?: { value: string } }): GoldTerm | undefined {
  if (t.termType === "NamedNode") return { kind: "iri", value: t.value };
  if (t.termType === "Variable") return { kind: "var", value: `?${t.value}` };
  if (t.termType === "BlankNode") return { kind: "var", value: `?b_${t.value.replace(/\W/g, "")}` };
  if (t.termType === "Literal") return { kind: "literal", value: t.value, ...(t.datatype ? { datatype: t.datatype.value } : {}) };
  return undefined;
}

/** A predicate path becomes plain triples: sequences are chained through fresh variables, ^p swaps the ends. */
function addPath(s: GoldTerm, p: PathLike | { termType: string; value: string }, o: GoldTerm, acc: Acc, into: GoldTriple[]): void {
  if (!("type" in p)) {
    if (p.termType === "NamedNode") into.push({ subject: s, predicate: p.value, object: o });
    else acc.features.add("other"); // a variable predicate has no relation phrase
    return;
  }
  // ?c rdfs:subClassOf* <C>: the class pattern of RDFS instances, not a relation of the question
  if (p.pathType === "*" && !("type" in p.items[0]) && p.items[0].value === SUBCLASS_OF && s.kind === "var" && o.kind === "iri") {
    acc.subclassOf.set(s.value, o.value);
    return;
  }
  acc.features.add("path");
  if (p.pathType === "/") {
    let from = s;
    p.items.forEach((item, i) => {
      const to: GoldTerm = i === p.items.length - 1 ? o : { kind: "var", value: `?path${++acc.fresh}` };
      addPath(from, item, to, acc, into);
      from = to;
    });
  } else if (p.pathType === "^") addPath(o, p.items[0], s, acc, into);
  else addPath(s, p.items[0], o, acc, into); // alternatives, *, +, ?: the first / inner predicate
}

function addTriple(t: Triple, acc: Acc, into: GoldTriple[]): void {
  const s = term(t.subject as { termType: string; value: string });
  const o = term(t.object as { termType: string; value: string });
  if (!s || !o) return void acc.features.add("other");
  if (s.kind === "literal") acc.features.add("other");
  addPath(s, t.predicate as PathLike, o, acc, into);
}

function walk(patterns: Pattern[], acc: Acc, into: GoldTriple[] = acc.triples): void {
  for (const p of patterns) {
    switch (p.type) {
      case "bgp":
        for (const t of p.triples) addTriple(t, acc, into);
        break;
      case "group":
      case "graph":
        walk(p.patterns, acc, into);
        break;
      case "union":
        acc.features.add("union");
        walk([p.patterns[0]], acc, into); // the first branch
        break;
      case "optional":
        acc.features.add("optional");
        walk(p.patterns, acc, acc.optional);
        break;
      case "minus":
        acc.features.add("negation");
        walk(p.patterns, acc, acc.negated);
        break;
      case "filter": {
        const e = p.expression as { type?: string; operator?: string; args?: unknown[] };
        if (e.type === "operation" && e.operator === "notexists") {
          acc.features.add("negation");
          walk(e.args as Pattern[], acc, acc.negated);
        } else if (e.type === "operation" && e.operator === "exists") {
          acc.features.add("filter");
          walk(e.args as Pattern[], acc, into);
        } else {
          acc.features.add("filter");
          acc.filters.push(e);
        }
        break;
      }
      case "bind":
        acc.features.add("bind");
        break;
      case "values":
        acc.features.add("values");
        break;
      case "query":
        acc.features.add("subquery");
        walk(p.where ?? [], acc, into);
        break;
      default:
        acc.features.add("other");
    }
  }
}

const varsOf = (triples: GoldTriple[]) => [...new Set(triples.flatMap((t) => [t.subject, t.object]).filter((x) => x.kind === "var").map((x) => x.value))];

/** Parses a gold query (SELECT or ASK); anything else, or unparsable text, is an AppError("bad_request"). */
export function parseGold(sparql: string): GoldPlan {
  let q: Query;
  try {
    const parsed = parseSparql(sparql);
    if (parsed.type !== "query") throw new Error("an update, not a query");
    q = parsed;
  } catch (e) {
    throw new AppError("bad_request", `Oracle: the gold SPARQL cannot be parsed (${(e as Error).message.split("\n")[0]}).`);
  }
  if (q.queryType !== "SELECT" && q.queryType !== "ASK") throw new AppError("bad_request", `Oracle: ${q.queryType} gold queries are not supported.`);
  const acc: Acc = { triples: [], negated: [], subclassOf: new Map(), optional: [], filters: [], features: new Set(), fresh: 0 };
  walk(q.where ?? [], acc);
  if (q.queryType === "SELECT" && (q.group || q.having)) acc.features.add("aggregate");
  const mods = q as { order?: unknown; limit?: number; offset?: number };
  if (mods.order || mods.limit !== undefined || mods.offset !== undefined) acc.features.add("order");

  const constraints = goldConstraints(q, acc);
  const triples = constraints.triples;
  const vars = varsOf(triples);
  let target: string | null = null;
  let questionType: GoldPlan["questionType"] = "factoid";
  if (q.queryType === "ASK") {
    questionType = "boolean";
    acc.features.add("ask");
  } else {
    if (constraints.countOnly) {
      acc.features.add("count");
      questionType = "count";
    } else if (constraints.aggregates.some((a) => a.fn === "count")) acc.features.add("count");
    const aliases = constraints.aggregates.map((a) => a.alias);
    // why: the QIR target must be a variable of the triples (or an aggregate's alias); a projection computed by BIND has none
    target = constraints.projected.find((v) => vars.includes(v) || aliases.includes(v)) ?? vars[0] ?? constraints.classes[0]?.variable ?? null;
  }
  if (acc.features.size === 0) acc.features.add("bgp");
  const features = SHAPE_RANK.filter((s) => acc.features.has(s)).reverse();
  const shape = SHAPE_RANK.find((s) => acc.features.has(s)) ?? "bgp";
  const all = [...triples, ...constraints.negated];
  const iris = (k: "subject" | "object") => all.flatMap((t) => (t[k].kind === "iri" ? [t[k].value] : []));
  return {
    ...constraints,
    queryType: q.queryType,
    target,
    questionType,
    shape,
    features,
    entityIris: [...new Set([...iris("subject"), ...iris("object"), ...constraints.excluded.flatMap((e) => e.iris)])],
    predicateIris: [...new Set(all.map((t) => t.predicate))],
    columns: constraints.projected.filter((v) => v !== target && (vars.includes(v) || constraints.aggregates.some((a) => a.alias === v))),
  };
}
