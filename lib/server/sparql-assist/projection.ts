// The order of a SELECT's columns as the query states it: its projection, or for SELECT * the variables in the order
// they first appear in the query (engines may answer SELECT * in any order; people read the query's).
import type * as Sparql from "sparqljs";
import { codeOnly } from "./positions";

/** Column order for `ast`'s result; `vars` (as the engine returned them) reordered, unknown ones kept at the end. */
export function projectionOrder(query: string, ast: Sparql.SparqlQuery, vars: string[]): string[] {
  if (ast.type !== "query" || ast.queryType !== "SELECT") return vars;
  const stated: string[] = [];
  const isStar = ast.variables.length === 1 && (ast.variables[0] as { termType?: string }).termType === "Wildcard";
  if (isStar) {
    for (const m of codeOnly(query).matchAll(/[?$]([\p{L}\p{N}_]+)/gu)) if (!stated.includes(m[1])) stated.push(m[1]);
  } else {
    for (const v of ast.variables as (Sparql.VariableTerm | Sparql.VariableExpression)[]) {
      const name = "termType" in v ? v.value : v.variable?.value;
      if (name && !stated.includes(name)) stated.push(name);
    }
  }
  const present = new Set(vars);
  const ordered = stated.filter((v) => present.has(v));
  return [...ordered, ...vars.filter((v) => !ordered.includes(v))];
}
