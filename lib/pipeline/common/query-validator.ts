// Validates a written query against the KG and its schema cards before it runs: every class, predicate and IRI exists;
// each required triple with a constant matches something (else: is it the other way round?); each pair of required
// triples sharing a variable can match together (a class's instances do have the predicate, a predicate's values are
// of the class); only the answer variables are projected. Every problem is a sentence the model can act on.
import type * as Sparql from "sparqljs";
import { compactIri, localName } from "@/lib/kg/profile";
import { isNamed, isVariable, projectedNames, queryTerms } from "./query-terms";
import { satisfiabilityProblems } from "./query-satisfiable";
import type { SchemaCards } from "./schema-cards";

export interface ValidationEnv {
  cards: SchemaCards;
  /** IRIs the prompt showed (examples, cards, entities found for the question, the conversation) */
  known: ReadonlySet<string>;
  typePredicates: readonly string[];
  labelPredicates: readonly string[];
  /** an ASK on the KG; undefined when it could not be answered (a timeout is not a fault of the query) */
  ask(query: string): Promise<boolean | undefined>;
  /** ASK queries per validation at most */
  maxChecks?: number;
}

export interface ValidationOutcome {
  problems: string[];
  /** ASK queries run */
  checks: number;
}

const MAX_CHECKS = 60;

function levenshtein(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 12) return 99;
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** Up to three names from `pool` closest to `value` (by local name, then by whole IRI). */
export function closest(value: string, pool: Iterable<string>, n = 3): string[] {
  const name = localName(value).toLowerCase();
  return [...pool]
    .filter((p) => p !== value)
    .map((p) => ({ p, d: Math.min(levenshtein(name, localName(p).toLowerCase()), levenshtein(value, p)) }))
    .filter((x) => x.d <= Math.max(3, Math.floor(name.length / 3)))
    .sort((a, b) => a.d - b.d)
    .slice(0, n)
    .map((x) => x.p);
}

export async function validateQuery(ast: Sparql.SelectQuery | Sparql.AskQuery, env: ValidationEnv): Promise<ValidationOutcome> {
  const problems: string[] = [];
  let checks = 0;
  const budget = env.maxChecks ?? MAX_CHECKS;
  const cache = new Map<string, boolean | undefined>();
  const ask = async (where: string): Promise<boolean | undefined> => {
    if (cache.has(where)) return cache.get(where);
    if (checks >= budget) return undefined;
    checks++;
    const r = await env.ask(`ASK { ${where} }`);
    cache.set(where, r);
    return r;
  };
  const show = (v: string) => compactIri(v, env.cards.prefixes);
  const classes = env.cards.cards.flatMap((c) => (c.class ? [c.class] : []));
  const cardPredicates = new Set(env.cards.predicates.keys());

  const terms = queryTerms(ast, env.typePredicates);
  if (ast.queryType === "SELECT") problems.push(...projectionProblems(ast, terms.required, env.labelPredicates));

  for (const c of terms.classes) {
    if (classes.includes(c) || env.known.has(c)) continue;
    const t = `<${c}>`;
    if ((await ask(`{ ?s ?p ${t} } UNION { ${t} ?p ?o }`)) === false) {
      const near = closest(c, classes);
      problems.push(`Class ${show(c)} does not exist in the KG.${near.length ? ` Similar classes: ${near.map(show).join(", ")}.` : ""}`);
    }
  }
  for (const p of terms.predicates) {
    if (cardPredicates.has(p)) continue;
    if ((await ask(`?s <${p}> ?o`)) === false) {
      const near = closest(p, cardPredicates);
      problems.push(`Predicate ${show(p)} is not used in the KG.${near.length ? ` Similar predicates: ${near.map(show).join(", ")}.` : ""}`);
    }
  }
  for (const c of terms.constants) {
    if (env.known.has(c)) continue;
    if (/%(?![0-9A-Fa-f]{2})/.test(c)) {
      const near = closest(c, env.known);
      problems.push(`${show(c)} is not a valid IRI (a % not followed by two hex digits).${near.length ? ` Did you mean ${near.map(show).join(" or ")}?` : ""}`);
      continue;
    }
    const t = `<${c}>`;
    if ((await ask(`{ ${t} ?p ?o } UNION { ?s ?p ${t} } UNION { ?s ${t} ?o }`)) === false) {
      const near = closest(c, env.known);
      problems.push(`${show(c)} does not occur in the KG.${near.length ? ` Did you mean ${near.map(show).join(" or ")}?` : " Find entities by their names instead of guessing IRIs."}`);
    }
  }
  // with every name known, can the patterns match? (an ASK only against the schema: it may rightly be false)
  if (problems.length) return { problems, checks };
  problems.push(...(await satisfiabilityProblems(terms, ast.queryType === "ASK" ? "ASK" : "SELECT", { ask, show, env })));
  return { problems, checks };
}

/** SELECT * or a column holding the label of another projected variable: the answer set gets values it should not have. */
export function projectionProblems(ast: Sparql.SelectQuery, required: Sparql.Triple[], labelPredicates: readonly string[]): string[] {
  const names = projectedNames(ast);
  if (names.includes("*")) return ["SELECT * projects every variable: project only the variable(s) that hold the answer."];
  const out: string[] = [];
  for (const t of required) {
    if (!isNamed(t.predicate) || !labelPredicates.includes(t.predicate.value) || !isVariable(t.subject) || !isVariable(t.object)) continue;
    const [s, o] = [(t.subject as Sparql.VariableTerm).value, (t.object as Sparql.VariableTerm).value];
    if (names.includes(s) && names.includes(o)) out.push(`?${o} is the label of ?${s}, and both are projected: project only the answer (?${s}), not its label as an extra column.`);
  }
  return out;
}
