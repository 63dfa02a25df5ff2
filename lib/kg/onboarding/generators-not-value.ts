// Candidates that ask of the rows whose text column is NOT a value, the way people leave one kind of row out of a
// table: "the names of the companies whose headquarters is not X", "the name and operating system of the accelerators
// whose connection is not X". The filter is a text column of the same row: a category (a value many rows share), or a
// text that hardly repeats (a country, a place, a theme — people leave one of those out as readily). What is asked:
// the row's naming column (else its first column), a category's second column too, and two columns at once by a
// category. Which columns: by role, order and how values repeat, never by any KG's words.
import { interleave, type Candidate, type GeneratorEnv, type Make } from "./frames";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, shortLiteral, type Seed, type SeedScope } from "./seeds";

/** text columns tried as the filter */
const FILTERS = 6;
/** columns asked for (one at a time) by a category; a text that hardly repeats asks for the first only */
const PROJECTIONS = 2;
/** two columns at once, per class (each slot of the example cap costs another kind's example) */
const PAIRS = 2;
/** a column groups rows when at most this share of its sampled values are distinct */
const GROUPING = 0.5;

export function notValueCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  if (!scope.cls) return [];
  const cls = scope.cls;
  const lits = seeds.filter(literalSeed);
  const keys = keyColumns(seeds);
  const texts = lits.filter((s) => s.predicate.role === "text" && !keys.has(s.predicate.iri) && s.pairs.some((pr) => shortLiteral(pr.o)));
  const isCategory = (s: Seed) => s.distinctShare <= GROUPING;
  // categories first, then the texts that hardly repeat
  const filters = [...texts.filter(isCategory), ...texts.filter((s) => !isCategory(s))].slice(0, FILTERS);
  const name = lits.find((s) => s.predicate.iri === scope.nameBy?.iri);
  const single: Candidate[][] = [];
  const pairs: Candidate[][] = [];
  for (const k of filters) {
    // a different sample row per column (as the value lookups pick theirs)
    const withValue = k.pairs.filter((pr) => shortLiteral(pr.o));
    const pick = withValue[(lits.indexOf(k) * 7) % withValue.length];
    const value = pick.o.value.trim();
    const where = (t: Set<string>, triples: string) => {
      const x = varName(scope.name || "x", t);
      const kv = varName(k.predicate.name, t, "value");
      return `${qb.typed(x, cls)}${x} ${qb.iri(k.predicate.iri)} ${kv} ; ${triples} . FILTER(${kv} != ${qb.term(pick.o)})`;
    };
    const opts = { mentions: [value], unfiltered: scope.count };
    // what is asked: the naming column first, then the columns in the table's order
    const asked = [...(name && name !== k ? [name] : []), ...lits.filter((s) => s !== k && s !== name)];
    single.push(
      asked.slice(0, isCategory(k) ? PROJECTIONS : 1).map((q) => {
        const t = new Set<string>();
        const w = varName(q.predicate.name, t, "value");
        return make("with-value", { kind: "attribute-not-value", p: q.predicate.name, key: k.predicate.name, value }, `SELECT ${w} WHERE { ${where(t, `${qb.iri(q.predicate.iri)} ${w}`)} }`, opts);
      }),
    );
    // the first asked beside each of the next columns but keys ("the name and year joined of the artists whose …")
    const [first, ...rest] = asked;
    if (!first || !isCategory(k)) continue;
    pairs.push(
      rest
        .filter((s) => !keys.has(s.predicate.iri))
        .slice(0, PROJECTIONS)
        .map((q) => {
          const t = new Set<string>();
          const [wa, wb] = [first, q].map((s) => varName(s.predicate.name, t, "value"));
          return make("with-value", { kind: "pair-not-value", p: first.predicate.name, q: q.predicate.name, key: k.predicate.name, value }, `SELECT ${wa} ${wb} WHERE { ${where(t, `${qb.iri(first.predicate.iri)} ${wa} ; ${qb.iri(q.predicate.iri)} ${wb}`)} }`, opts);
        }),
    );
  }
  // each filter's first question before any filter's second, the categories' before the other texts'
  const order = (qs: Candidate[][], n: number) => [...interleave(qs.slice(0, n)), ...interleave(qs.slice(n))];
  const categories = filters.filter(isCategory).length;
  return [...order(single, categories), ...interleave(pairs).slice(0, PAIRS)];
}
