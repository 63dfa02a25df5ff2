// Candidates that ask for TWO columns of a class's rows, the way people ask tables: the naming column beside the
// sort key of the top row ("the name and price of the cheapest product"), an id beside the name of the top row ("the id
// and name of the employee with the highest salary"), two columns sorted by the naming column or by a measure ("the
// names and headquarters of the companies in descending order of market value"), two sibling columns of every row ("the
// start and end dates of all bookings") and two columns of the rows with a value ("the address and phone of the
// buildings whose manager is X"). Which pairs: the naming column, key columns as ids, columns of one role (two dates,
// two measures) or sharing a word of their names — never a list of any KG's words.
import { interleave, type Candidate, type Frame, type GeneratorEnv, type Make } from "./frames";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, shortLiteral, type Seed, type SeedScope } from "./seeds";

/** measures (numbers, dates) a top row or an order is asked by */
const SORT_KEYS = 3;
/** columns listed beside the naming column */
const BESIDE = 3;
/** sibling pairs per class */
const SIBLINGS = 3;
/** candidates per class: they share one turn a round with each other, the first few are what a capped pool keeps */
const DEPTH = 8;

const measure = (s: Seed, keys: Set<string>) => (s.predicate.role === "number" || s.predicate.role === "date") && !keys.has(s.predicate.iri);

/** Two columns as people list them: a row's key or id before the other column ("the id and market share of …"). */
export function idFirst(a: Seed, b: Seed, keys: Set<string>): [Seed, Seed] {
  const id = (s: Seed) => keys.has(s.predicate.iri) || s.predicate.role === "id";
  return id(b) && !id(a) ? [b, a] : [a, b];
}

/** Words of a column's name that tell it from the class's other columns (not the class's own name, not one letter). */
function nameWords(s: Seed, classWords: Set<string>): Set<string> {
  return new Set(
    s.predicate.name
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .map((w) => w.replace(/s$/, ""))
      .filter((w) => w.length > 1 && !classWords.has(w)),
  );
}

/** Two dates in the order of their events (the one earlier in most rows first: a start before an end); else as given. */
function earlierFirst(a: Seed, b: Seed): [Seed, Seed] {
  if (a.predicate.role !== "date" || b.predicate.role !== "date") return [a, b];
  const of = new Map(b.pairs.map((pr) => [pr.s, pr.o.value]));
  let later = 0;
  for (const pr of a.pairs) {
    const other = of.get(pr.s);
    if (other !== undefined && other !== pr.o.value) later += pr.o.value > other ? 1 : -1;
  }
  return later > 0 ? [b, a] : [a, b];
}

/**
 * Sibling columns asked together: two dates, two measures, or two columns whose names share a word ("planned
 * delivery date" / "actual delivery date", "date from" / "date to"). A shared word first, then a shared role.
 */
export function siblingPairs(lits: Seed[], keys: Set<string>, className: string): [Seed, Seed][] {
  const classWords = new Set(className.toLowerCase().split(/[^\p{L}\p{N}]+/u).map((w) => w.replace(/s$/, "")));
  const cols = lits.filter((s) => !keys.has(s.predicate.iri));
  const scored: { pair: [Seed, Seed]; score: number; i: number }[] = [];
  for (const [i, a] of cols.entries()) {
    for (const b of cols.slice(i + 1)) {
      const wa = nameWords(a, classWords);
      const shared = [...nameWords(b, classWords)].some((w) => wa.has(w));
      const role = a.predicate.role === b.predicate.role && (a.predicate.role === "date" || a.predicate.role === "number");
      if (shared || role) scored.push({ pair: earlierFirst(a, b), score: (shared ? 2 : 0) + (role ? 1 : 0), i: scored.length });
    }
  }
  return scored.sort((x, y) => y.score - x.score || x.i - y.i).map((x) => x.pair);
}

export function pairCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  if (!scope.cls) return [];
  const cls = scope.cls;
  const lits = seeds.filter(literalSeed);
  const keys = keyColumns(seeds);
  const name = lits.find((s) => s.predicate.iri === scope.nameBy?.iri);
  const measures = lits.filter((s) => measure(s, keys)).slice(0, SORT_KEYS);
  // a row's id: a key column (or an id-like column) that is not the naming column
  const id = lits.find((s) => s !== name && (keys.has(s.predicate.iri) || s.predicate.role === "id"));
  const beside = name ? lits.filter((s) => s !== name && !keys.has(s.predicate.iri)).slice(0, BESIDE) : [];
  /** `SELECT a b WHERE { ?x a C ; A ?a ; B ?b [; S ?s] } …`, the variables named for their columns */
  const pairQuery = (a: Seed, b: Seed, sort?: Seed) => {
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const [va, vb] = [a, b].map((s) => varName(s.predicate.name, t, "value"));
    const vs = sort === a ? va : sort === b ? vb : sort ? varName(sort.predicate.name, t, "value") : undefined;
    const extra = sort && sort !== a && sort !== b ? ` ; ${qb.iri(sort.predicate.iri)} ${vs}` : "";
    return { x, va, vb, vs: vs ?? "", where: `${qb.typed(x, cls)}${x} ${qb.iri(a.predicate.iri)} ${va} ; ${qb.iri(b.predicate.iri)} ${vb}${extra} .` };
  };
  const frameOf = (kind: Frame["kind"], a: Seed, b: Seed, extra: Partial<Frame> = {}): Frame => ({ kind, key: a.predicate.name, q: b.predicate.name, ...extra });

  // two columns of the top row: the name beside the sort key itself, an id beside the name
  const top: Candidate[] = [];
  if (name) {
    for (const m of measures) {
      for (const dir of ["high", "low"] as const) {
        const order = (v: string) => `ORDER BY ${dir === "high" ? "DESC" : "ASC"}(${v}) LIMIT 1`;
        const own = pairQuery(name, m, m);
        top.push(make("superlative", frameOf("pair-top", name, m, { p: m.predicate.name, dir }), `SELECT ${own.va} ${own.vb} WHERE { ${own.where} } ${order(own.vs)}`, { tie: { v: own.vs.slice(1), k: 1 } }));
        if (id) {
          const q = pairQuery(id, name, m);
          top.push(make("superlative", frameOf("pair-top", id, name, { p: m.predicate.name, dir }), `SELECT ${q.va} ${q.vb} WHERE { ${q.where} } ${order(q.vs)}`, { tie: { v: q.vs.slice(1), k: 1 } }));
        }
      }
    }
  }

  // two columns sorted: by the naming column, or by a measure either way
  const sorted: Candidate[] = [];
  if (name) {
    const byName = beside.map((b) => {
      const q = pairQuery(name, b, name);
      return make("order", frameOf("pair-sorted", name, b, { p: name.predicate.name, dir: "low" }), `SELECT ${q.va} ${q.vb} WHERE { ${q.where} } ORDER BY ${q.va}`, { list: true });
    });
    const byMeasure = measures.flatMap((m) => {
      const b = beside.find((s) => s !== m && !measure(s, keys));
      if (!b) return [];
      const q = pairQuery(name, b, m);
      return (["high", "low"] as const).map((dir) => make("order", frameOf("pair-sorted", name, b, { p: m.predicate.name, dir }), `SELECT ${q.va} ${q.vb} WHERE { ${q.where} } ORDER BY ${dir === "high" ? `DESC(${q.vs})` : q.vs}`, { list: true }));
    });
    sorted.push(...interleave([byName, byMeasure]));
  }

  // two sibling columns of every row
  const siblings = siblingPairs(lits, keys, scope.name).slice(0, SIBLINGS);
  const list = siblings.map(([a, b]) => {
    const q = pairQuery(a, b);
    return make("class-list", frameOf("pair-list", a, b), `SELECT ${q.va} ${q.vb} WHERE { ${q.where} }`, { list: true });
  });

  // two columns of the rows with a value of a category (a text column whose values repeat) or of the naming column,
  // a key or id first
  const withValue: Candidate[] = [];
  const filters = lits.filter((s) => s.predicate.role === "text" && s.distinctShare <= 0.5 && !keys.has(s.predicate.iri)).slice(0, 2);
  for (const [i, k] of [...filters, ...(name ? [name] : [])].entries()) {
    const values = k.pairs.filter((pr) => shortLiteral(pr.o));
    const pick = values[(i * 7) % Math.max(1, values.length)];
    if (!pick) continue;
    const pairs: [Seed, Seed][] = [...(name && k !== name ? beside.filter((b) => b !== k).slice(0, 1).map((b) => [name, b] as [Seed, Seed]) : []), ...siblings.filter(([a, b]) => a !== k && b !== k).slice(0, 1)];
    for (const [a, b] of pairs.map(([a, b]) => idFirst(a, b, keys))) {
      const q = pairQuery(a, b);
      const value = pick.o.value.trim();
      withValue.push(
        make("value-of", frameOf("pair-with-value", a, b, { p: k.predicate.name, value }), `SELECT ${q.va} ${q.vb} WHERE { ${q.where} ${q.x} ${qb.iri(k.predicate.iri)} ${qb.term(pick.o)} . }`, {
          mentions: [value],
          unfiltered: scope.count,
        }),
      );
    }
  }
  // one queue (examples.ts gives the pair kinds one turn a round): each shape's best first, in turn
  return interleave([top, sorted, list, withValue]).slice(0, DEPTH);
}
