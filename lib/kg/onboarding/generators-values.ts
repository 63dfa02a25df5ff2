// Candidates that aggregate a measure over the rows with a value of another column, the way people ask tables: "the
// total revenue of the companies whose headquarters is Austin", "the average capacity of the stadiums opened in 2005".
// The filter is a column whose values repeat — a category (text or a code that refers to another row) or a number
// with few values (a year) — and the measure any other numeric column; the value is the filter's most frequent one, so
// the aggregate runs over several rows. Which columns: by role and how their values repeat, never by any KG's words.
import { interleave, type Candidate, type GeneratorEnv, type Make } from "./frames";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, shortLiteral, type Seed, type SeedScope } from "./seeds";

/** (filter, measure) pairs per class, each asked as a total and an average */
const PAIRS = 4;
/** a column groups rows when at most this share of its sampled values are distinct */
const GROUPING = 0.5;
const AGGS = ["avg", "sum"] as const;

/** Whole numbers that all read as years (1000–2100): a date people filter by, never a measure they total. */
export const yearLike = (s: Seed) => s.pairs.length > 0 && s.pairs.every((pr) => /^\d{4}$/.test(pr.o.value.trim()) && Number(pr.o.value) >= 1000 && Number(pr.o.value) <= 2100);

/**
 * Whole numbers that count rather than measure: small ones (a place, a rank, up to 10) or one per row up to the number
 * of rows (a row number).
 */
export function ordinal(s: Seed): boolean {
  const values = s.pairs.map((pr) => Number(pr.o.value));
  if (values.length === 0 || !values.every((n) => Number.isInteger(n) && n >= 0)) return false;
  const max = Math.max(...values);
  return max <= 10 || (s.distinctShare >= 0.9 && max <= s.count);
}

/** The column's most frequent short value (ties: first seen), when it repeats. */
export function frequentValue(s: Seed): Seed["pairs"][number]["o"] | undefined {
  const best = sharedValues(s)[0];
  return best && best.n >= 2 ? best.o : undefined;
}

/** A column's short values by how many of its sampled rows hold each, most first (ties: first seen). */
export function sharedValues(s: Seed): { o: Seed["pairs"][number]["o"]; n: number }[] {
  const counts = new Map<string, { o: Seed["pairs"][number]["o"]; n: number }>();
  for (const { o } of s.pairs) {
    if (!shortLiteral(o)) continue;
    const e = counts.get(o.value) ?? { o, n: 0 };
    e.n++;
    counts.set(o.value, e);
  }
  return [...counts.values()].sort((a, b) => b.n - a.n);
}

/**
 * Columns that sort a table's rows into groups, in the order people filter by them: categories written as text, then
 * codes referring to other rows (a status code), then years (other numbers with few values are more often ids or
 * counts than groups: "whose goals is 0").
 */
export function groupingColumns(lits: Seed[], keys: Set<string>): Seed[] {
  const grouping = lits.filter((s) => s.distinctShare <= GROUPING && s.pairs.length >= 3);
  const text = (s: Seed) => s.predicate.role === "text" || s.predicate.role === "boolean" || s.predicate.role === "name";
  return [
    ...grouping.filter((s) => text(s) && !keys.has(s.predicate.iri)),
    ...grouping.filter((s) => text(s) && keys.has(s.predicate.iri)),
    ...grouping.filter((s) => s.predicate.role === "number" && !keys.has(s.predicate.iri) && yearLike(s)),
  ];
}

/** A class's aggregates and counts over the rows with a value (its columns read once for both). */
export function valueCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  if (!scope.cls) return [];
  const lits = seeds.filter(literalSeed);
  const keys = keyColumns(seeds);
  const grouping = groupingColumns(lits, keys);
  return [...valueAggregates(scope.cls, scope, lits, keys, grouping, env, make), ...valueCounts(scope.cls, scope, keys, grouping, env, make)];
}

function valueAggregates(cls: string, scope: SeedScope, lits: Seed[], keys: Set<string>, grouping: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const numbers = lits.filter((s) => s.predicate.role === "number" && !keys.has(s.predicate.iri) && !yearLike(s));
  // ranks and row numbers (small whole numbers counting up from 1) are totalled less than amounts: asked last
  const measures = [...numbers.filter((s) => !ordinal(s)), ...numbers.filter(ordinal)];
  const own: Candidate[] = [];
  // each filter's first measure before any filter's second
  const pairs = interleave(grouping.map((k) => measures.filter((m) => m !== k).map((m) => [k, m] as const)));
  for (const [k, m] of pairs.slice(0, PAIRS)) {
    const v = frequentValue(k);
    if (!v) continue;
    const value = v.value.trim();
    for (const agg of AGGS) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const w = varName(m.predicate.name, t, "value");
      own.push(
        make("aggregate", { kind: "aggregate-with-value", p: m.predicate.name, key: k.predicate.name, value, agg }, `SELECT (${agg.toUpperCase()}(${w}) AS ?${agg}) WHERE { ${qb.typed(x, cls)}${x} ${qb.iri(k.predicate.iri)} ${qb.term(v)} ; ${qb.iri(m.predicate.iri)} ${w} }`, {
          mentions: [value],
          runLimit: false,
        }),
      );
    }
  }
  return own;
}

/**
 * How many rows have a value of a column the per-column reads leave out: a code referring to another row ("how many
 * documents have status code done") and a naming column whose names repeat ("how many phones have company name X").
 */
function valueCounts(cls: string, scope: SeedScope, keys: Set<string>, grouping: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const out: Candidate[] = [];
  for (const k of grouping.filter((s) => keys.has(s.predicate.iri) || s.predicate.role === "name")) {
    const v = frequentValue(k);
    if (!v) continue;
    const value = v.value.trim();
    const x = varName(scope.name || "x", new Set());
    out.push(make("class-count", { kind: "count-with-value", p: k.predicate.name, value }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${qb.typed(x, cls)}${x} ${qb.iri(k.predicate.iri)} ${qb.term(v)} }`, { mentions: [value], unfiltered: scope.count, runLimit: false }));
  }
  return out;
}
