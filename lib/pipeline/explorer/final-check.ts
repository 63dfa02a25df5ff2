// Checks on the explorer's final query that need no KG: only known IRIs (byte-exact), only answer variables projected
// (a label of another projected variable is for the UI, not the answer set), and no answer found during exploration
// pasted in as a constant (VALUES, BIND, or FILTER = / IN on a projected variable) instead of being computed — a
// choice among the question's own constants (VALUES / IN of things it names) is no pasted answer.
import type * as Sparql from "sparqljs";
import type { KnownIris } from "./known-iris";
import { questionWritesValue } from "./question-constants";

export interface FinalQueryFacts {
  known: KnownIris;
  /** the profile's label predicates: a projected variable holding another projected variable's label is refused */
  labelPredicates: readonly string[];
  /** IRIs and literal values that earlier execute_sparql results returned (answers found while exploring) */
  seenInResults: ReadonlySet<string>;
  /** IRIs a search for a name the question writes returned: the question's constants (question-constants.ts) */
  questionConstants?: ReadonlySet<string>;
  /** the question's texts: a literal they write is a constant of the question too */
  asked?: readonly string[];
}

export interface FinalCheck {
  /** why the query cannot be the final one; empty when it can */
  problems: string[];
  /** notes that do not refuse the query */
  warnings: string[];
}

type Node = Record<string, unknown>;
const isObj = (v: unknown): v is Node => typeof v === "object" && v !== null;

/** Every IRI the query names (literal datatypes aside), in order of first appearance. */
export function irisOfQuery(ast: Sparql.SparqlQuery): string[] {
  const out = new Set<string>();
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObj(v)) return;
    if (v.termType === "NamedNode" && typeof v.value === "string") return void out.add(v.value);
    if (v.termType === "Literal") return; // its datatype is not a term of the query
    for (const [k, child] of Object.entries(v)) if (k !== "prefixes") walk(child);
  };
  walk(ast);
  return [...out];
}

/** The names of the projected variables (SELECT), with `*` as "*". */
function projected(ast: Sparql.SelectQuery): string[] {
  return (ast.variables ?? []).map((v) => {
    if ("termType" in v) return v.termType === "Wildcard" ? "*" : v.value;
    return (v as Sparql.VariableExpression).variable.value;
  });
}

function triplesOf(patterns: unknown): Sparql.Triple[] {
  const out: Sparql.Triple[] = [];
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObj(v)) return;
    if (v.type === "bgp" && Array.isArray(v.triples)) out.push(...(v.triples as Sparql.Triple[]));
    for (const [k, child] of Object.entries(v)) if (k !== "triples") walk(child);
  };
  walk(patterns);
  return out;
}

/** Constants a pattern binds to a variable: VALUES rows, BIND(<const> AS ?v), FILTER(?v = const) and FILTER(?v IN (…)). */
function constantBindings(patterns: unknown): { variable: string; values: string[]; how: string }[] {
  const out: { variable: string; values: string[]; how: string }[] = [];
  const constant = (e: unknown): string | undefined =>
    isObj(e) && (e.termType === "NamedNode" || e.termType === "Literal") && typeof e.value === "string" ? e.value : undefined;
  const variableName = (e: unknown): string | undefined => (isObj(e) && e.termType === "Variable" && typeof e.value === "string" ? e.value : undefined);
  const walk = (v: unknown) => {
    if (Array.isArray(v)) return v.forEach(walk);
    if (!isObj(v)) return;
    if (v.type === "values" && Array.isArray(v.values)) {
      const byVar = new Map<string, string[]>();
      for (const row of v.values as Record<string, unknown>[]) {
        for (const [k, term] of Object.entries(row)) {
          const c = constant(term);
          if (c !== undefined) byVar.set(k.replace(/^[?$]/, ""), [...(byVar.get(k.replace(/^[?$]/, "")) ?? []), c]);
        }
      }
      for (const [variable, values] of byVar) out.push({ variable, values, how: "VALUES" });
    } else if (v.type === "bind") {
      const c = constant(v.expression);
      const name = variableName(v.variable);
      if (c !== undefined && name) out.push({ variable: name, values: [c], how: "BIND" });
    } else if (v.type === "operation" && Array.isArray(v.args)) {
      const [a, b] = v.args as unknown[];
      if (v.operator === "=") {
        const name = variableName(a) ?? variableName(b);
        const c = constant(a) ?? constant(b);
        if (name && c !== undefined) out.push({ variable: name, values: [c], how: "FILTER(=)" });
      } else if (v.operator === "in" && variableName(a) && Array.isArray(b)) {
        const values = b.map(constant).filter((x): x is string => x !== undefined);
        if (values.length) out.push({ variable: variableName(a)!, values, how: "FILTER(IN)" });
      }
    }
    for (const child of Object.values(v)) walk(child);
  };
  walk(patterns);
  return out;
}

/** Checks a parsed final query (SELECT or ASK). */
export function checkFinalQuery(ast: Sparql.SparqlQuery, facts: FinalQueryFacts): FinalCheck {
  const problems: string[] = [];
  const warnings: string[] = [];
  const unknown: string[] = [];
  for (const value of irisOfQuery(ast)) {
    const c = facts.known.check(value);
    if (c.ok) continue;
    if (c.kind === "encoding") {
      problems.push(`<${value}> differs from the IRI a tool returned only in its percent-encoding: use <${c.known}> exactly as returned`);
      warnings.push(`IRI differs only by percent-encoding: <${value}> vs <${c.known}>`);
    } else unknown.push(`<${value}>`);
  }
  if (unknown.length) {
    problems.push(
      `${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ""} ${unknown.length === 1 ? "was" : "were"} not returned by any tool in this conversation: find the IRI with a search or describe tool first (never guess IRIs)`,
    );
  }
  if (ast.type !== "query" || ast.queryType !== "SELECT") return { problems, warnings };

  const vars = projected(ast);
  if (vars.includes("*")) {
    problems.push("SELECT * projects every variable: project only the variables that hold the answer");
    return { problems, warnings };
  }
  const projectedSet = new Set(vars);
  const labels = new Set(facts.labelPredicates);
  for (const t of triplesOf(ast.where)) {
    const p = t.predicate as { termType?: string; value?: string };
    if (p.termType !== "NamedNode" || !labels.has(p.value ?? "")) continue;
    if (t.subject.termType === "Variable" && t.object.termType === "Variable" && projectedSet.has(t.subject.value) && projectedSet.has(t.object.value)) {
      problems.push(`?${t.object.value} is only the label of ?${t.subject.value}: project ?${t.subject.value} alone (labels are shown to the user anyway)`);
    }
  }
  for (const b of constantBindings(ast.where)) {
    if (!projectedSet.has(b.variable)) continue;
    // a choice among things the question names ("which is older, A or B") fixes the candidates, not the answer; one
    // such value bound alone is still the answer pasted in
    const choice = b.values.length > 1 && (b.how === "VALUES" || b.how === "FILTER(IN)");
    const ofQuestion = (v: string) => choice && (facts.questionConstants?.has(v) || questionWritesValue(v, facts.asked ?? []));
    const found = b.values.filter((v) => facts.seenInResults.has(v) && !ofQuestion(v));
    if (found.length) {
      problems.push(
        `?${b.variable} is fixed by ${b.how} to value(s) an earlier query returned (${found.slice(0, 3).join(", ")}${found.length > 3 ? ", …" : ""}): compute the answer with graph patterns instead of pasting it in`,
      );
    }
  }
  return { problems, warnings };
}
