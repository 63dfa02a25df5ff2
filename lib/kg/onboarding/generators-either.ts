// Candidates that count the rows whose category is one of two values, the way people pick two kinds of row at once:
// "How many companies have industry X or Y?". The filter is a text column some rows share values of (categories
// first, then texts that repeat, such as a city), two of its most shared sampled values. Which columns: by role and
// how values repeat, never by any KG's words. (Asking for the rows' names the same way did not pay for its place in
// the example cap: measured in docs/onboarding.md.)
import { interleave, type Candidate, type GeneratorEnv, type Make } from "./frames";
import { varName } from "./query-builder";
import { sharedValues } from "./generators-values";
import { literalSeed, type Seed, type SeedScope } from "./seeds";

/** The kind's place in the example rounds: after its one-value sibling's candidates of the class, in the same turn. */
export const EITHER_TURNS: Record<string, string> = { "count-either": "count-with-value" };
/** text columns tried as the filter */
const FILTERS = 3;
/** a column groups rows when at most this share of its sampled values are distinct */
const GROUPING = 0.5;

type Value = Seed["pairs"][number]["o"];

/** Two different values of a column's sample, the most shared first (the rows people pick by are common ones). */
export function twoValues(seed: Seed): [Value, Value] | undefined {
  // a value that is itself a list ("Windows, Mac") reads as more than one in "X or Y"
  const [a, b] = sharedValues({ ...seed, pairs: seed.pairs.filter((pr) => !/,|\b(or|and)\b/i.test(pr.o.value)) });
  return a && b ? [a.o, b.o] : undefined;
}

export function eitherCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  if (!scope.cls) return [];
  const cls = scope.cls;
  const lits = seeds.filter(literalSeed);
  const name = lits.find((s) => s.predicate.iri === scope.nameBy?.iri);
  // a code that refers to another row is picked by as readily ("type code X or Y"); a text no two rows share is not
  const texts = lits.filter((s) => s.predicate.role === "text" && s !== name && s.distinctShare < 1);
  const filters = [...texts.filter((s) => s.distinctShare <= GROUPING), ...texts.filter((s) => s.distinctShare > GROUPING)].slice(0, FILTERS);
  const queues: Candidate[][] = [];
  for (const k of filters) {
    const two = twoValues(k);
    if (!two) continue;
    const [a, b] = two;
    const values = [a.value.trim(), b.value.trim()];
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const kv = varName(k.predicate.name, t, "value");
    const body = `${qb.typed(x, cls)}${x} ${qb.iri(k.predicate.iri)} ${kv} . FILTER(${kv} = ${qb.term(a)} || ${kv} = ${qb.term(b)})`;
    queues.push([make("class-count", { kind: "count-either", p: k.predicate.name, value: values[0], value2: values[1] }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} }`, { mentions: values, unfiltered: scope.count, runLimit: false })]);
  }
  return interleave(queues);
}
