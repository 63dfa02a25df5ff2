// Group-and-count questions people ask of tables that the base generators leave out: counts per value of a column
// that refers to other rows by their key (a literal beside the link, or an id column whose values repeat) — "how many
// artisans are there for each guild id", the id with the most or the fewest rows, the ids shared by more than one row,
// how many different ids. The base generators treat such a column as a key (looked up by, never grouped), but people
// group by it as written, as in SQL. Columns come from the class's seeds; nothing names any KG's vocabulary.
import type { Candidate, FrameKind, GeneratorEnv, Make } from "./frames";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, rowKeyOf, shortLiteral, type Seed, type SeedScope } from "./seeds";

/** Below this share of distinct values in the sample, a column's values repeat: groups of more than one row. */
const REPEATS = 0.9;
/** Columns of a class used per shape (each column is its own template; the example cap is shared). */
const COLUMNS = 2;

/** Kinds that count per group: an answer of one group, or of a group per row, is degenerate (execute.ts). */
export const GROUP_COUNT_KINDS = new Set<FrameKind>(["key-count-per-group"]);

/** A column holds the key its own row's IRI carries (every value its own group). */
const holdsOwnKey = (s: Seed) => s.pairs.filter((p) => p.o.type === "literal" && rowKeyOf(p.s) === p.o.value).length >= 0.8 * s.pairs.length;
const short = (s: Seed) => s.pairs.length > 0 && s.pairs.every((p) => shortLiteral(p.o));

/** Columns that refer to other rows by their key (not the row's own key) and whose sampled values repeat. */
export function referenceColumns(seeds: Seed[]): Seed[] {
  const keys = keyColumns(seeds);
  return seeds.filter((s) => literalSeed(s) && (keys.has(s.predicate.iri) || s.predicate.role === "id") && !holdsOwnKey(s) && s.distinctShare < REPEATS && short(s));
}

export function groupCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const C = scope.cls;
  // rows of tables: elsewhere an id column is an identifier, not a reference to another row
  if (!C || !scope.rows) return [];
  const out: Candidate[] = [];
  for (const g of referenceColumns(seeds).slice(0, COLUMNS)) {
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const v = varName(g.predicate.name, t, "value");
    const body = `${qb.typed(x, C)}${x} ${qb.iri(g.predicate.iri)} ${v}`;
    const f = { p: g.predicate.name };
    out.push(make("count-per-group", { kind: "key-count-per-group", ...f }, `SELECT ${v} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${v}`));
    for (const dir of ["high", "low"] as const) {
      out.push(make("count-per-group", { kind: "key-group-most", ...f, dir }, `SELECT ${v} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${v} ORDER BY ${dir === "high" ? "DESC" : "ASC"}(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
    }
    out.push(make("count-per-group", { kind: "key-group-having", ...f, n: "1" }, `SELECT ${v} WHERE { ${body} } GROUP BY ${v} HAVING (COUNT(DISTINCT ${x}) > 1)`));
    out.push(make("count-per-group", { kind: "key-group-having", ...f, n: "2", dir: "low" }, `SELECT ${v} WHERE { ${body} } GROUP BY ${v} HAVING (COUNT(DISTINCT ${x}) >= 2)`));
    // how many different values ("how many different guild ids do the artisans have"): a count, not a lookup
    out.push(make("class-count", { kind: "key-count-distinct", ...f }, `SELECT (COUNT(DISTINCT ${v}) AS ?count) WHERE { ${body} }`, { runLimit: false }));
  }
  return out;
}
