// Group-and-count questions people ask of tables that the base generators leave out:
// - counts per value of a column that refers to other rows by their key (a literal beside the link, or an id column
//   whose values repeat): "how many artisans are there for each guild id", the id with the most or the fewest rows, the
//   ids of more than one or at least two rows. The base generators treat such a column as a key (looked up by, never
//   grouped); people group by it as written, as in SQL;
// - how many different values a column has where the base count leaves it out: such key columns, and the class's first
//   naming or nearly unique text column ("how many different names");
// - the row another class's rows refer to most, named by two of its columns (its key and name, else its name and
//   another column), grouped by both: "what are the id and name of the guild with the most artisans";
// - the number of rows beside a measure's total per category ("the number of artisans and their total wage per craft").
// Columns, links and attributes come from the class's seeds and the linked class's (`env.classes`); nothing names any
// KG's vocabulary.
import type { Candidate, FrameKind, GeneratorEnv, Make } from "./frames";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, rowKeyOf, shortLiteral, type Seed, type SeedScope } from "./seeds";

/** Below this share of distinct values in the sample, a column's values repeat: groups of more than one row. */
const REPEATS = 0.9;
/** Columns of a class used per shape (each column is its own template; the example cap is shared). */
const COLUMNS = 2;
/** A category: few distinct values in the sample. */
const CATEGORY = 0.5;

/** Kinds that count per group: an answer of one group, or of a group per row, is degenerate (execute.ts). */
export const GROUP_COUNT_KINDS = new Set<FrameKind>(["key-count-per-group", "count-aggregate-per-group"]);

/** A column holds the key its own row's IRI carries (every value its own group). */
export const holdsOwnKey = (s: Seed) => s.pairs.filter((p) => p.o.type === "literal" && rowKeyOf(p.s) === p.o.value).length >= 0.8 * s.pairs.length;
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
  const keys = keyColumns(seeds);
  const typed = (x: string) => qb.typed(x, C);
  const references = referenceColumns(seeds);
  const distinct = (g: Seed, kind: "key-count-distinct" | "count-distinct") => {
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const v = varName(g.predicate.name, t, "value");
    return make("class-count", { kind, p: g.predicate.name }, `SELECT (COUNT(DISTINCT ${v}) AS ?count) WHERE { ${typed(x)}${x} ${qb.iri(g.predicate.iri)} ${v} }`, { runLimit: false });
  };
  for (const g of references.slice(0, COLUMNS)) {
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const v = varName(g.predicate.name, t, "value");
    const body = `${typed(x)}${x} ${qb.iri(g.predicate.iri)} ${v}`;
    const f = { p: g.predicate.name };
    out.push(make("count-per-group", { kind: "key-count-per-group", ...f }, `SELECT ${v} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${v}`));
    for (const dir of ["high", "low"] as const) {
      out.push(make("count-per-group", { kind: "key-group-most", ...f, dir }, `SELECT ${v} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${v} ORDER BY ${dir === "high" ? "DESC" : "ASC"}(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
    }
    out.push(make("count-per-group", { kind: "key-group-having", ...f, n: "1" }, `SELECT ${v} WHERE { ${body} } GROUP BY ${v} HAVING (COUNT(DISTINCT ${x}) > 1)`));
    out.push(make("count-per-group", { kind: "key-group-having", ...f, n: "2", dir: "low" }, `SELECT ${v} WHERE { ${body} } GROUP BY ${v} HAVING (COUNT(DISTINCT ${x}) >= 2)`));
    out.push(distinct(g, "key-count-distinct"));
  }
  // how many different names (or nearly unique texts), which the base count leaves out: one column a class, in the
  // base count's turn (after its columns) — a turn of their own crowded out other examples under the cap
  const unique = seeds.find((s) => (s.predicate.role === "name" || (s.predicate.role === "text" && s.distinctShare >= REPEATS)) && !keys.has(s.predicate.iri) && short(s));
  if (unique) out.push(distinct(unique, "count-distinct"));

  // the linked row with the most rows referring to it, named by two of its columns
  for (const link of seeds.filter((s) => s.predicate.role === "object" && s.targetClass && s.targetClass !== C)) {
    const other = env.classes?.get(link.targetClass ?? "");
    if (!other?.scope.rows) continue;
    const pair = namingPair(other.seeds, other.scope.nameBy?.iri);
    if (!pair) continue;
    const [a, b] = pair;
    const target = env.lexicon.displayName(link.targetClass ?? "") ?? other.scope.name;
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const y = varName(target || "y", t, "y");
    const wa = varName(a.predicate.name, t, "value");
    const wb = varName(b.predicate.name, t, "value");
    // grouped in the order the columns are projected (as people write it; the order is part of the template)
    const body = `${typed(x)}${x} ${qb.iri(link.predicate.iri)} ${y} . ${qb.typed(y, link.targetClass)}${y} ${qb.iri(a.predicate.iri)} ${wa} ; ${qb.iri(b.predicate.iri)} ${wb} .`;
    const f = { p: link.predicate.name, key: a.predicate.name, q: b.predicate.name, target };
    out.push(make("count-per-group", { kind: "join-pair-most", ...f, dir: "high" }, `SELECT ${wa} ${wb} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${wa} ${wb} ORDER BY DESC(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
  }

  // the number of rows beside a measure's total, per category
  const categories = seeds.filter((s) => s.predicate.role === "text" && !keys.has(s.predicate.iri) && s.distinctShare <= CATEGORY && short(s)).slice(0, COLUMNS);
  const measure = seeds.find((s) => s.predicate.role === "number" && !keys.has(s.predicate.iri));
  for (const g of measure ? categories : []) {
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const v = varName(g.predicate.name, t, "group");
    const w = varName(measure?.predicate.name ?? "", t, "value");
    const body = `${typed(x)}${x} ${qb.iri(g.predicate.iri)} ${v} ; ${qb.iri(measure?.predicate.iri ?? "")} ${w}`;
    out.push(make("aggregate", { kind: "count-aggregate-per-group", p: measure?.predicate.name, q: g.predicate.name, agg: "sum" }, `SELECT ${v} (COUNT(DISTINCT ${x}) AS ?count) (SUM(${w}) AS ?sum) WHERE { ${body} } GROUP BY ${v}`));
  }
  return out;
}

/** Two columns that name a row: its key and its name (else another column), or its name and another column. */
export function namingPair(seeds: Seed[], nameIri: string | undefined): [Seed, Seed] | undefined {
  const keys = keyColumns(seeds);
  const cols = seeds.filter((s) => literalSeed(s) && short(s));
  const key = cols.find((s) => keys.has(s.predicate.iri) && holdsOwnKey(s));
  const name = cols.find((s) => s.predicate.iri === nameIri && s !== key);
  const other = cols.find((s) => s !== key && s !== name && !keys.has(s.predicate.iri));
  const second = name ?? other;
  if (key && second) return [key, second];
  return name && other ? [name, other] : undefined;
}
