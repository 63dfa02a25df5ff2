// The oracle's reading of a gold SPARQL query: its mandatory basic graph pattern, target, question type and shape tag.
import { Parser, type Pattern, type Query, type Triple } from "sparqljs";
import { AppError } from "@/lib/errors";

/** A term of a gold triple: an IRI to be named by its label, a variable kept as is, or a literal kept as its text. */
export type GoldTerm = { kind: "iri"; value: string } | { kind: "var"; value: string } | { kind: "literal"; value: string };

export interface GoldTriple {
  subject: GoldTerm;
  predicate: string;
  object: GoldTerm;
}

/**
 * Coarse tags for what a gold query needs beyond one BGP. `bgp`, `ask` and `count` are what the Chatty-KG query
 * generator can express; the rest tell why an oracle run can still miss (the oracle answers with the BGP part only).
 */
export const GOLD_SHAPES = ["bgp", "ask", "count", "path", "union", "optional", "filter", "negation", "bind", "values", "order", "aggregate", "subquery", "other"] as const;
export type GoldShape = (typeof GOLD_SHAPES)[number];
// why: one tag per question, the hardest feature wins, so a breakdown row says what kept the question out of reach
const SHAPE_RANK: GoldShape[] = ["subquery", "aggregate", "order", "bind", "values", "negation", "filter", "optional", "union", "path", "other", "count", "ask", "bgp"];

export interface GoldPlan {
  queryType: "SELECT" | "ASK";
  triples: GoldTriple[];
  /** the variable the question asks for ("?x"), null for ASK */
  target: string | null;
  questionType: "factoid" | "count" | "boolean";
  shape: GoldShape;
  /** every shape feature seen (shape is the hardest of these) */
  features: GoldShape[];
  /** IRIs in subject/object position (need labels and types) */
  entityIris: string[];
  predicateIris: string[];
}

const RDF_TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type";
export const isRdfType = (iri: string) => iri === RDF_TYPE;

type PathLike = { type: "path"; pathType: string; items: (PathLike | { termType: string; value: string })[] };

interface Acc {
  triples: GoldTriple[];
  features: Set<GoldShape>;
  fresh: number;
}

function term(t: { termType: string; value: string }): GoldTerm | undefined {
  if (t.termType === "NamedNode") return { kind: "iri", value: t.value };
  if (t.termType === "Variable") return { kind: "var", value: `?${t.value}` };
  if (t.termType === "BlankNode") return { kind: "var", value: `?b_${t.value.replace(/\W/g, "")}` };
  if (t.termType === "Literal") return { kind: "literal", value: t.value };
  return undefined;
}

/** A predicate path becomes plain triples: sequences are chained through fresh variables, ^p swaps the ends. */
function addPath(s: GoldTerm, p: PathLike | { termType: string; value: string }, o: GoldTerm, acc: Acc): void {
  if (!("type" in p)) {
    if (p.termType === "NamedNode") acc.triples.push({ subject: s, predicate: p.value, object: o });
    else acc.features.add("other"); // a variable predicate has no relation phrase
    return;
  }
  acc.features.add("path");
  if (p.pathType === "/") {
    let from = s;
    p.items.forEach((item, i) => {
      const to: GoldTerm = i === p.items.length - 1 ? o : { kind: "var", value: `?path${++acc.fresh}` };
      addPath(from, item, to, acc);
      from = to;
    });
  } else if (p.pathType === "^") addPath(o, p.items[0], s, acc);
  else addPath(s, p.items[0], o, acc); // alternatives, *, +, ?: the first / inner predicate
}

function addTriple(t: Triple, acc: Acc): void {
  const s = term(t.subject as { termType: string; value: string });
  const o = term(t.object as { termType: string; value: string });
  if (!s || !o) return void acc.features.add("other");
  if (s.kind === "literal") acc.features.add("other");
  addPath(s, t.predicate as PathLike, o, acc);
}

function walk(patterns: Pattern[], acc: Acc): void {
  for (const p of patterns) {
    switch (p.type) {
      case "bgp":
        for (const t of p.triples) addTriple(t, acc);
        break;
      case "group":
      case "graph":
        walk(p.patterns, acc);
        break;
      case "union":
        acc.features.add("union");
        walk([p.patterns[0]], acc); // the first branch
        break;
      case "optional":
        acc.features.add("optional"); // left out: not needed for the answer
        break;
      case "minus":
        acc.features.add("negation");
        break;
      case "filter": {
        const e = p.expression as { type?: string; operator?: string };
        acc.features.add(e.type === "operation" && (e.operator === "notexists" || e.operator === "exists") ? "negation" : "filter");
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
        walk(p.where ?? [], acc);
        break;
      default:
        acc.features.add("other");
    }
  }
}

const variablesOf = (triples: GoldTriple[]) => [...new Set(triples.flatMap((t) => [t.subject, t.object]).filter((x) => x.kind === "var").map((x) => x.value))];

/** Parses a gold query (SELECT or ASK); anything else, or unparsable text, is an AppError("bad_request"). */
export function parseGold(sparql: string): GoldPlan {
  let q: Query;
  try {
    const parsed = new Parser().parse(sparql);
    if (parsed.type !== "query") throw new Error("an update, not a query");
    q = parsed;
  } catch (e) {
    throw new AppError("bad_request", `Oracle: the gold SPARQL cannot be parsed (${(e as Error).message.split("\n")[0]}).`);
  }
  if (q.queryType !== "SELECT" && q.queryType !== "ASK") throw new AppError("bad_request", `Oracle: ${q.queryType} gold queries are not supported.`);
  const acc: Acc = { triples: [], features: new Set(), fresh: 0 };
  walk(q.where ?? [], acc);
  if (q.queryType === "SELECT" && (q.group || q.having)) acc.features.add("aggregate");
  const mods = q as { order?: unknown; limit?: number; offset?: number };
  if (mods.order || mods.limit !== undefined || mods.offset !== undefined) acc.features.add("order");

  const vars = variablesOf(acc.triples);
  let target: string | null = null;
  let questionType: GoldPlan["questionType"] = "factoid";
  if (q.queryType === "ASK") {
    questionType = "boolean";
    acc.features.add("ask");
  } else {
    const projected: string[] = [];
    for (const v of q.variables) {
      if ("termType" in v) {
        if (v.termType === "Variable") projected.push(`?${v.value}`);
        continue; // SELECT *
      }
      const e = (v as { expression: { type?: string; aggregation?: string; expression?: unknown } }).expression;
      if (e.type === "aggregate") {
        const inner = e.expression as { termType?: string; value?: string };
        if (e.aggregation === "count") {
          acc.features.add("count");
          if (projected.length === 0) questionType = "count";
          if (inner.termType === "Variable") projected.push(`?${inner.value}`);
          else if (vars[0]) projected.push(vars[0]); // COUNT(*)
        } else acc.features.add("aggregate");
      } else acc.features.add("bind"); // a computed projection
    }
    // why: the QIR target must be a variable of the triples; a projection computed by BIND has none
    target = projected.find((v) => vars.includes(v)) ?? vars[0] ?? null;
  }
  if (acc.features.size === 0) acc.features.add("bgp");
  const features = SHAPE_RANK.filter((s) => acc.features.has(s)).reverse();
  const shape = SHAPE_RANK.find((s) => acc.features.has(s)) ?? "bgp";
  const iris = (k: "subject" | "object") => acc.triples.flatMap((t) => (t[k].kind === "iri" ? [t[k].value] : []));
  return {
    queryType: q.queryType,
    triples: acc.triples,
    target,
    questionType,
    shape,
    features,
    entityIris: [...new Set([...iris("subject"), ...iris("object")])],
    predicateIris: [...new Set(acc.triples.map((t) => t.predicate))],
  };
}
