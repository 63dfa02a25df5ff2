// Variables a template pins down by text: `FILTER(CONTAINS(LCASE(STR(?x)), "carillon"))` or a REGEX/STRSTARTS/STRENDS
// on one variable. A KG that writes a kind only into names (no class for it) is asked this way, and such a variable is
// an anchor for relation discovery: its predicates are the ones its matching things have, not every predicate of the KG.
import type * as Sparql from "sparqljs";
import { varName } from "@/lib/pipeline/common/sparql-ast";

const TEXT_TESTS = new Set(["contains", "regex", "strstarts", "strends"]);

/** Variables and string-test operators anywhere in an expression. */
function scan(x: unknown, vars: Set<string>, ops: Set<string>): void {
  if (Array.isArray(x)) return x.forEach((y) => scan(y, vars, ops));
  if (!x || typeof x !== "object") return;
  const o = x as { termType?: string; value?: string; type?: string; operator?: string; args?: unknown };
  if (o.termType === "Variable" && o.value) vars.add(varName(o.value));
  if (o.type === "operation" && o.operator) ops.add(o.operator.toLowerCase());
  if (o.args !== undefined) scan(o.args, vars, ops);
}

/**
 * The text filters of the template's own groups (not inside NOT EXISTS or MINUS), per the one variable each tests.
 * A filter over two variables, or without a string test, pins nothing down.
 */
export function textFiltersOf(where: Sparql.Pattern[] | undefined): Record<string, Sparql.FilterPattern[]> {
  const out: Record<string, Sparql.FilterPattern[]> = {};
  const walk = (patterns: Sparql.Pattern[]) => {
    for (const p of patterns) {
      if (p.type === "group") walk(p.patterns);
      if (p.type !== "filter") continue;
      const vars = new Set<string>();
      const ops = new Set<string>();
      scan(p.expression, vars, ops);
      if (vars.size !== 1 || ops.has("exists") || ops.has("notexists") || ![...ops].some((op) => TEXT_TESTS.has(op))) continue;
      const [v] = vars;
      (out[v] ??= []).push(p);
    }
  };
  walk(where ?? []);
  return out;
}
