// Chatty-KG's query writer played by the question-grounded oracle (`--llm oracle`): when the gold query needs more
// than the QIR's fields say, the QIR says "compose", and the writer's reply is the gold query with every constant
// grounded by the shared rules (oracle-query-constants.ts): IRIs only those the writer's prompt listed (what the
// pipeline linked and the classes around it showed), literals and numbers from the question, a listed value or a
// reviewed normalisation. The structure stays the gold's (the model's reasoning); a gold IRI the prompt did not list
// means the pipeline did not surface it: the oracle declines ("sparql": null) and the generated queries run.
import type { SparqlQuery } from "sparqljs";
import { parseSparql } from "@/lib/kg/sparql-syntax";
import { isAppError } from "@/lib/errors";
import { portableGoldSparql } from "./gold";
import { groundQueryConstants } from "./oracle-query-constants";
import type { OracleLog } from "./oracle-grounding";

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;

/** Filter functions the QIR's comparisons say (oracle-llm-gold-constraints.ts readFilter); anything else is composed. */
const SAYABLE_OPERATORS = new Set(["&&", "||", "=", "!=", "<", "<=", ">", ">=", "str", "lcase", "ucase", "contains", "notexists", "exists"]);

function walk(v: unknown, visit: (n: Node, key?: string) => void, key?: string): void {
  if (Array.isArray(v)) return v.forEach((x) => walk(x, visit, key));
  if (!isObj(v)) return;
  visit(v, key);
  for (const [k, c] of Object.entries(v)) if (k !== "prefixes") walk(c, visit, k);
}

/**
 * Does the gold query need the query writer? Yes when it has what the QIR's fields do not say: subqueries, UNION,
 * MINUS, BIND, VALUES, OPTIONAL, GROUP BY / HAVING, several aggregates or a computed projection, two negations
 * ("neither … nor"), several ORDER BY
 * keys, a superlative or top-N window (the writer keeps ties), or a FILTER beyond comparisons of a variable
 * (arithmetic, IN over variables, other functions).
 */
export function needsComposition(sparql: string): boolean {
  let q: SparqlQuery;
  try {
    q = parseSparql(sparql) as SparqlQuery;
  } catch {
    return false;
  }
  if (q.type !== "query") return false;
  const sel = q as unknown as { group?: unknown[]; having?: unknown[]; order?: unknown[]; limit?: number; variables?: unknown[]; queryType: string };
  if (sel.group?.length || sel.having?.length || (sel.order?.length ?? 0) > 1) return true;
  // "the most / the least / top N": the writer keeps ties (the QIR's order + limit cuts them)
  if (sel.order?.length && sel.limit !== undefined) return true;
  const projected = (sel.variables ?? []).filter((v) => isObj(v) && "expression" in v) as { expression: Node }[];
  // one aggregate over the whole answer is the QIR's ("the total capacity"); computed columns or several are not
  if (projected.some((p) => p.expression.type !== "aggregate") || projected.length > 1) return true;
  let composed = false;
  let negations = 0;
  walk(q.where, (n, key) => {
    // "neither A nor B": two negated patterns are the writer's (one "without" is the QIR's "not")
    if (n.type === "minus" || (n.type === "operation" && n.operator === "notexists")) negations++;
    // OPTIONAL: a column some answers lack, which the QIR cannot say
    if (n.type === "query" || n.type === "union" || n.type === "minus" || n.type === "bind" || n.type === "values" || n.type === "optional") composed = true;
    if (n.type === "operation" && typeof n.operator === "string" && !SAYABLE_OPERATORS.has(n.operator)) {
      // ?x IN ("a", "b") is a comparison the QIR says; IN over variables or anything else is not
      const args = Array.isArray(n.args) ? n.args : [];
      const listed = n.operator === "in" && Array.isArray(args[1]) && (args[1] as Node[]).every((a) => a.termType === "Literal" || a.termType === "NamedNode");
      if (!listed) composed = true;
    }
    void key;
  });
  return composed || negations > 1;
}

/** The IRIs a writer prompt listed (every <…> in it) and the literal values it showed ("Linked values" lines). */
export function writerPromptSources(prompt: string): { iris: Set<string>; texts: string[] } {
  const iris = new Set([...prompt.matchAll(/<(https?:[^<>\s]+|urn:[^<>\s]+)>/g)].map((m) => m[1]));
  const texts: string[] = [];
  const at = prompt.indexOf("Linked values:");
  if (at >= 0) {
    for (const line of prompt.slice(at).split("\n").slice(1)) {
      if (!line.startsWith("- ")) break;
      const arrow = line.indexOf("→");
      for (const m of line.slice(arrow + 1).matchAll(/"((?:[^"\\]|\\.)*)"/g)) {
        try {
          texts.push(JSON.parse(`"${m[1]}"`) as string);
        } catch {
          /* not a JSON string: skip */
        }
      }
    }
  }
  return { iris, texts };
}

/** The oracle's written query for one writer prompt, or null (declined: a gold IRI the prompt did not list). */
export function oracleWrittenQuery(prompt: string, gold: string, question: { text: string; language: string }, log: OracleLog): string | null {
  const { iris, texts } = writerPromptSources(prompt);
  // told that the engine has no xsd:int cast, a model writes xsd:integer (the fix the gold runner applies too)
  const query = /Running it failed: .*XMLSchema#int/.test(prompt) ? portableGoldSparql(gold) : gold;
  try {
    const g = groundQueryConstants(query, { question: question.text, language: question.language, iris, texts }, log, (i) => iris.has(i), { neutralVariables: true });
    if (g.dropped.some((d) => d.startsWith("iri "))) return null;
    return g.sparql;
  } catch (e) {
    // an ASK whose constant nothing grounds: no query
    if (isAppError(e)) return null;
    throw e;
  }
}
