// Numeric comparisons whose filter sits across a link — the answer is a column of one row, the measure compared is a
// column of the row it links to (or of the rows linking to it):
// - "what is the name of each vessel whose port has a depth greater than 18" (the rows' column, the linked row's
//   measure: `join-compare`);
// - "what is the name of the captains that have a voyage with a cargo weight greater than 210" (the linked row's
//   column, the linking rows' measure: `join-compare-reverse`);
// - through a row that links two others: "the name of the ports that have a visit with a vessel whose tonnage is
//   greater than 2200" (`link-compare`);
// - counts across a link as a bound: the two columns that name the rows referred to by more than one (or at least
//   two) rows ("the id and name of the captains with more than 1 licence": `join-pair-having`).
// They share one turn a round (examples.ts) and a class asks the likeliest one only. The threshold keeps a handful of
// rows, not half a large table. Columns, links and values come from the seeds of the classes at both ends
// (`env.classes`) and the two-hop rows (`env.joins`); nothing names any KG's vocabulary.
import { interleave, type Candidate, type Frame, type FrameKind, type GeneratorEnv, type Make } from "./frames";
import { namingPair } from "./generators-groups";
import { ordinal, yearLike } from "./generators-values";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, shortLiteral, threshold, type Seed, type SeedScope } from "./seeds";

/** Rows of the class a comparison keeps, about (seeds.ts threshold; half of a small table). */
const KEEP = 10;
/** Measures compared and columns asked for per linked class (each pair is its own template; the cap is shared). */
const MEASURES = 2;
const COLUMNS = 2;
/**
 * Candidates a class (the likeliest): each takes a place under the cap from another kind's later round, and on the Spider
 * train suite a second or third a class lost as many questions there as it added (full 45.0 -> 45.0 with 3 or 4).
 */
const PER_CLASS = 1;
/** The kinds that share one turn (examples.ts), in the order each round of them takes them. */
export const TURN_ORDER: FrameKind[] = ["join-compare", "join-compare-reverse", "link-compare", "join-pair-having"];

type Dir = "high" | "low";
/** People ask "more than N" across a link far more often than "less than N"; the second direction did not pay. */
const DIR: Dir = "high";

/**
 * Whole numbers that name rather than measure: every sampled value different and of the same number of digits, five or
 * more (a registration or insurance number) — "greater than 65465421" asks nothing a person would.
 */
export function codeLike(s: Seed): boolean {
  const values = s.pairs.map((p) => p.o.value.trim());
  return values.length >= 3 && s.distinctShare >= 0.99 && values.every((v) => /^\d{5,}$/.test(v) && v.length === values[0].length);
}

/** A class's measures: number columns that are not keys; amounts first, then years, ranks and small counts, codes last. */
const measuresOf = (seeds: Seed[]) => {
  const keys = keyColumns(seeds);
  const rank = (s: Seed) => (codeLike(s) ? 3 : ordinal(s) ? 2 : yearLike(s) ? 1 : 0);
  return seeds
    .filter((s) => s.predicate.role === "number" && !keys.has(s.predicate.iri) && s.pairs.length >= 3)
    .sort((a, b) => rank(a) - rank(b))
    .slice(0, MEASURES);
};

/** The columns asked for: a naming column first, then the others with short values — not yes/no flags, ids or keys. */
function columnsOf(seeds: Seed[], nameIri: string | undefined): Seed[] {
  const keys = keyColumns(seeds);
  const lits = seeds.filter((s) => literalSeed(s) && s.predicate.role !== "boolean" && s.predicate.role !== "id" && !keys.has(s.predicate.iri) && s.pairs.some((p) => shortLiteral(p.o)));
  // a column that tells the rows apart (a name, a description, a date) reads as the answer; a category repeats
  const rank = (s: Seed) => (s.predicate.iri === nameIri ? 0 : s.distinctShare >= DISTINCT ? 1 : 2);
  return [...lits].sort((a, b) => rank(a) - rank(b)).slice(0, COLUMNS);
}

/** At or above this share of distinct sampled values a column tells its rows apart. */
const DISTINCT = 0.9;

const numbers = (pairs: { o: { value: string } }[]) => pairs.map((p) => Number(p.o.value)).filter((n) => Number.isFinite(n));

export function linkCompareCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const X = scope.cls;
  if (!X) return [];
  const out: { c: Candidate; rank: number; named?: boolean }[] = [];
  const push = (rank: number, c: Candidate, named = false) => out.push({ c, rank, named });
  /** the column asked for names its rows (a name, not a category or a measure) */
  const naming = (col: Seed) => col.predicate.role === "name";
  const typedRow = (v: string, cls: string | undefined) => (scope.rows ? qb.typed(v, cls) : "");
  const cmp = (v: string, n: string, dir: Dir) => `FILTER(${v} ${dir === "high" ? ">" : "<"} ${n})`;
  const own = columnsOf(seeds, scope.nameBy?.iri);
  const ownMeasures = measuresOf(seeds);
  const links = seeds.filter((s) => s.predicate.role === "object" && s.targetClass && s.targetClass !== X);

  for (const [il, link] of links.entries()) {
    const other = env.classes?.get(link.targetClass ?? "");
    if (!other) continue;
    const target = env.lexicon.displayName(link.targetClass ?? "") ?? other.scope.name;
    const P = qb.iri(link.predicate.iri);
    const joins = env.joins.get(`${link.predicate.iri} ${X}`) ?? [];
    // column a of the rows on one side where measure m on the other passes a threshold of its values
    const compare = (kind: "join-compare" | "join-compare-reverse", a: Seed, m: Seed, n: string, unfiltered: number, rank: number, query: (x: string, y: string, w: string, v: string, n: string) => string) => {
      const t = new Set<string>();
      const [x, y] = [varName(scope.name || "x", t), varName(target || "y", t, "y")];
      const [w, v] = [varName(a.predicate.name, t, "value"), varName(m.predicate.name, t, "value")];
      const frame: Frame = { kind, p: m.predicate.name, key: a.predicate.name, target, n, dir: DIR };
      push(rank, make("numeric-filter", frame, query(x, y, w, v, n), { mentions: [n], unfiltered }), naming(a));
    };

    // the rows' column, the linked row's measure
    for (const [im, m] of measuresOf(other.seeds).entries()) {
      // the two-hop rows weigh the values by the rows that link (the linked class's own sample when they lack the measure)
      const hop = joins.find((j) => j.q.iri === m.predicate.iri);
      const th = threshold(hop && hop.rows.length >= 3 ? numbers([...new Map(hop.rows.map((r) => [r.s, r])).values()]) : numbers(m.pairs), DIR, scope.count, KEEP);
      if (th === undefined) continue;
      for (const [ia, a] of own.entries()) {
        compare("join-compare", a, m, qb.number(th), scope.count, il + ia + im, (x, y, w, v, n) => `SELECT ${w} WHERE { ${qb.typed(x, X)}${x} ${qb.iri(a.predicate.iri)} ${w} ; ${P} ${y} . ${typedRow(y, link.targetClass)}${y} ${qb.iri(m.predicate.iri)} ${v} . ${cmp(v, n, DIR)} }`);
      }
    }

    // the linked row's column, the linking rows' measure ("the captains that have a voyage heavier than N")
    for (const [im, m] of ownMeasures.entries()) {
      const th = threshold(numbers(m.pairs), DIR, scope.count, KEEP);
      if (th === undefined) continue;
      for (const [ia, a] of columnsOf(other.seeds, other.scope.nameBy?.iri).entries()) {
        compare("join-compare-reverse", a, m, qb.number(th), other.scope.count, il + ia + im, (x, y, w, v, n) => `SELECT DISTINCT ${w} WHERE { ${qb.typed(x, X)}${x} ${qb.iri(m.predicate.iri)} ${v} ; ${P} ${y} . ${typedRow(y, link.targetClass)}${y} ${qb.iri(a.predicate.iri)} ${w} . ${cmp(v, n, DIR)} }`);
      }
    }

    // counts across the link as a bound: the linked rows named by two columns (more than one, at least two rows)
    if (!scope.rows || !other.scope.rows) continue;
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const y = varName(target || "y", t, "y");
    const pair = namingPair(other.seeds, other.scope.nameBy?.iri);
    const bounds = [
      { n: "1", op: ">", dir: "high" as const },
      { n: "2", op: ">=", dir: "low" as const },
    ];
    if (pair) {
      const [a, b] = pair;
      const wa = varName(a.predicate.name, t, "value");
      const wb = varName(b.predicate.name, t, "value");
      const body = `${qb.typed(x, X)}${x} ${P} ${y} . ${qb.typed(y, link.targetClass)}${y} ${qb.iri(a.predicate.iri)} ${wa} ; ${qb.iri(b.predicate.iri)} ${wb} .`;
      for (const [i, bound] of bounds.entries()) {
        const frame: Frame = { kind: "join-pair-having", p: link.predicate.name, key: a.predicate.name, q: b.predicate.name, target, n: bound.n, dir: bound.dir };
        push(il + 2 * i, make("count-per-group", frame, `SELECT ${wa} ${wb} WHERE { ${body} } GROUP BY ${wa} ${wb} HAVING (COUNT(DISTINCT ${x}) ${bound.op} ${bound.n})`));
      }
    }
  }

  // through a row that links two others: one end's column, the other end's measure
  if (scope.rows) {
    const ends = links.flatMap((link) => {
      const other = env.classes?.get(link.targetClass ?? "");
      return other?.scope.rows ? [{ link, other, name: env.lexicon.displayName(link.targetClass ?? "") ?? other.scope.name }] : [];
    });
    for (const a of ends) {
      for (const b of ends) {
        if (a.link.targetClass === b.link.targetClass) continue;
        for (const [im, m] of measuresOf(b.other.seeds).entries()) {
          const th = threshold(numbers(m.pairs), DIR, scope.count, KEEP);
          if (th === undefined) continue;
          const n = qb.number(th);
          for (const [ia, fa] of columnsOf(a.other.seeds, a.other.scope.nameBy?.iri).entries()) {
            const t = new Set<string>();
            const l = varName(scope.name || "link", t);
            const x = varName(a.name || "a", t, "a");
            const y = varName(b.name || "b", t, "b");
            const w = varName(fa.predicate.name, t, "value");
            const v = varName(m.predicate.name, t, "value");
            const frame: Frame = { kind: "link-compare", p: fa.predicate.name, target: a.name, other: b.name, key: m.predicate.name, n, dir: DIR };
            const body = `SELECT DISTINCT ${w} WHERE { ${qb.typed(l, X)}${l} ${qb.iri(a.link.predicate.iri)} ${x} ; ${qb.iri(b.link.predicate.iri)} ${y} . ${qb.typed(x, a.link.targetClass)}${x} ${qb.iri(fa.predicate.iri)} ${w} . ${qb.typed(y, b.link.targetClass)}${y} ${qb.iri(m.predicate.iri)} ${v} . ${cmp(v, n, DIR)} }`;
            push(ia + im, make("numeric-filter", frame, body, { mentions: [n], unfiltered: a.other.scope.count }), naming(fa));
          }
        }
      }
    }
  }

  // one turn a round for all of them (examples.ts TURN): the likeliest of each kind in turn, a few a class — each
  // example here takes a place under the cap from another kind's later round
  const byKind = new Map<string, Candidate[]>();
  for (const { c } of out.sort((p, q) => p.rank - q.rank)) {
    const queue = byKind.get(c.frame.kind);
    if (queue) queue.push(c);
    else byKind.set(c.frame.kind, [c]);
  }
  // an answer of names first, whichever side of the link holds them
  const named = new Set(out.filter((o) => o.named).map((o) => o.c));
  const turn = interleave(TURN_ORDER.map((k) => byKind.get(k) ?? []));
  return [...turn.filter((c) => named.has(c)), ...turn.filter((c) => !named.has(c))].slice(0, PER_CLASS);
}
