// Candidates that go through a row of another class — the way people ask about link tables (many-to-many rows) and
// about what has no such row: "the names of the singers with a membership in the choir named X" (and their average
// age), "each choir's name beside the names of its singers", "the singers no membership refers to", "the singers with
// no membership as soloist", "the singers with both a soloist and a member membership". The scope is the class whose
// rows hold the links (its object predicates); the other ends' naming columns, attributes and values come from their
// own seeds (`env.classes`). Nothing names any KG's vocabulary.
import type { Term } from "@/lib/kg/types";
import type { Candidate, GeneratorEnv, Make } from "./frames";
import { exceptQuery, varName } from "./query-builder";
import { keyColumns, literalSeed, rowKeyOf, shortLiteral, type Seed, type SeedScope } from "./seeds";

/** Attributes of a linked class asked for or filtered by (each pair is its own template). */
const ATTRIBUTES = 2;
/** Own attributes of the link rows used to pick some of them ("the memberships as soloist"). */
const OWN = 3;
/** Candidates per kind and class: the example cap is shared with every other kind (the first of each are the likeliest) */
const PER_KIND = 2;


interface Side {
  /** the link row's object predicate to this end */
  seed: Seed;
  /** the linked class and its name */
  cls: string;
  name: string;
  /** its literal attributes (its own seeds): the naming column first, then the others, the key column last */
  attrs: Seed[];
  /** its key column (the value its row IRI carries), if its seeds show one */
  key?: Seed;
}

/** A column holds the key its row's IRI carries. */
const holdsKey = (s: Seed) => s.pairs.length >= 2 && s.pairs.filter((p) => p.o.type === "literal" && rowKeyOf(p.s) === p.o.value).length >= 0.8 * s.pairs.length;

function sideOf(scope: SeedScope, seed: Seed, env: GeneratorEnv): Side | undefined {
  if (!seed.targetClass || seed.targetClass === scope.cls) return undefined;
  const other = env.classes?.get(seed.targetClass);
  if (!other) return undefined;
  const lits = other.seeds.filter((s) => literalSeed(s) && s.pairs.some((p) => shortLiteral(p.o)));
  if (lits.length === 0) return undefined;
  const keys = keyColumns(other.seeds);
  const key = lits.find((s) => keys.has(s.predicate.iri) && holdsKey(s));
  const rank = (s: Seed) => (s.predicate.iri === other.scope.nameBy?.iri ? 0 : keys.has(s.predicate.iri) ? 2 : 1);
  const attrs = [...lits].sort((a, b) => rank(a) - rank(b));
  const name = env.lexicon.displayName(seed.targetClass) ?? other.scope.name ?? seed.predicate.name;
  return { seed, cls: seed.targetClass, name, attrs, ...(key ? { key } : {}) };
}

export function linkCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const L = scope.cls;
  // rows of tables (key=value ids, blank-node rows): link tables are how relational data holds many-to-many facts
  if (!L || !scope.rows) return [];
  const sides = seeds.filter((s) => s.predicate.role === "object").flatMap((s) => sideOf(scope, s, env) ?? []);
  if (sides.length === 0) return [];
  const keys = keyColumns(seeds);
  const own = seeds.filter((s) => literalSeed(s) && !keys.has(s.predicate.iri) && s.pairs.some((p) => shortLiteral(p.o))).slice(0, OWN);
  const typedSide = (v: string, side: Side) => (scope.rows ? qb.typed(v, side.cls) : "");
  // each candidate with its rank: attributes earlier in their lists (naming columns) first, so the first of a kind is the likeliest
  const out: { c: Candidate; rank: number }[] = [];
  const push = (rank: number, c: Candidate) => out.push({ c, rank });

  // a link table: rows of keys and links only, linking two classes. Paths through a class whose rows are things of their
  // own (with columns of their own) crowded out likelier examples under the cap (Spider core: pool 40.8 → 39.6 %)
  const linkTable = sides.length >= 2 && seeds.every((s) => !literalSeed(s) || keys.has(s.predicate.iri));
  const linkSides = linkTable ? sides : [];

  // through a link row: an attribute of the A things linked to the B thing whose attribute has a value
  for (const a of linkSides) {
    for (const b of linkSides) {
      if (a === b) continue;
      const A = qb.iri(a.seed.predicate.iri);
      const B = qb.iri(b.seed.predicate.iri);
      for (const [ib, fb] of b.attrs.filter((j) => j !== b.key).slice(0, ATTRIBUTES).entries()) {
        // a value of B's attribute on a B that a link row joins to an A (so the answer is not empty)
        const toA = new Set(a.seed.pairs.map((p) => p.s));
        const joined = new Set(b.seed.pairs.flatMap((p) => (toA.has(p.s) ? [p.o.value] : [])));
        const row = fb.pairs.find((r) => shortLiteral(r.o) && joined.has(r.s)) ?? fb.pairs.find((r) => shortLiteral(r.o));
        if (!row) continue;
        const V = qb.term(row.o);
        const value = row.o.value.trim();
        const frame = { target: a.name, other: b.name, key: fb.predicate.name, value };
        const t0 = new Set<string>();
        const l = varName(scope.name || "link", t0);
        const x = varName(a.name, t0, "a");
        const y = varName(b.name, t0, "b");
        const through = `${qb.typed(l, L)}${l} ${A} ${x} . ${typedSide(x, a)}${l} ${B} ${y} . ${typedSide(y, b)}${y} ${qb.iri(fb.predicate.iri)} ${V} . `;
        for (const [ia, fa] of a.attrs.slice(0, ATTRIBUTES).entries()) {
          const w = varName(fa.predicate.name, new Set(t0), "value");
          push(ia + ib, make("two-hop", { kind: "link-filter", p: fa.predicate.name, ...frame }, `SELECT DISTINCT ${w} WHERE { ${through}${x} ${qb.iri(fa.predicate.iri)} ${w} }`, { mentions: [value] }));
        }
        const measure = a.attrs.find((j) => j !== a.key && j.predicate.role === "number");
        if (measure) {
          const m = varName(measure.predicate.name, new Set(t0), "value");
          push(ib, make("two-hop", { kind: "link-aggregate", p: measure.predicate.name, agg: "avg", ...frame }, `SELECT (AVG(${m}) AS ?avg) WHERE { ${through}${x} ${qb.iri(measure.predicate.iri)} ${m} }`, { mentions: [value], runLimit: false }));
        }
      }
    }
  }

  // two columns across a link: A's attribute beside B's for every link row
  for (const [i, a] of linkSides.entries()) {
    for (const b of linkSides.slice(i + 1)) {
      for (const [ia, fa] of a.attrs.filter((j) => j !== a.key).slice(0, ATTRIBUTES).entries()) {
        for (const [ib, fb] of b.attrs.filter((j) => j !== b.key).slice(0, ATTRIBUTES).entries()) {
          const t = new Set<string>();
          const l = varName(scope.name || "link", t);
          const x = varName(a.name, t, "a");
          const y = varName(b.name, t, "b");
          const wa = varName(fa.predicate.name, t, "value");
          const wb = varName(fb.predicate.name, t, "value");
          push(
            ia + ib,
            make("two-hop", { kind: "link-list-two", p: fa.predicate.name, target: a.name, key: fb.predicate.name, other: b.name }, `SELECT ${wa} ${wb} WHERE { ${qb.typed(l, L)}${l} ${qb.iri(a.seed.predicate.iri)} ${x} ; ${qb.iri(b.seed.predicate.iri)} ${y} . ${typedSide(x, a)}${x} ${qb.iri(fa.predicate.iri)} ${wa} . ${typedSide(y, b)}${y} ${qb.iri(fb.predicate.iri)} ${wb} }`, {
              list: true,
            }),
          );
        }
      }
    }
  }

  // negation: the A things no row of this class links to (at all, or with a value of its own attribute), by an attribute
  for (const a of sides) {
    const A = qb.iri(a.seed.predicate.iri);
    for (const [ia, fa] of a.attrs.slice(0, ATTRIBUTES).entries()) {
      const FA = qb.iri(fa.predicate.iri);
      const minus = (kind: "link-none" | "link-none-value", rank: number, extra: (l: string, t: Set<string>) => { text: string; frame: object; mentions: string[] }) => {
        const t = new Set<string>();
        const n = varName(fa.predicate.name, t, "value");
        const x1 = varName(a.name, t, "a");
        const n1 = varName(`${fa.predicate.name} all`, t, "value");
        const x2 = varName(`${a.name} linked`, t, "a");
        const n2 = varName(`${fa.predicate.name} linked`, t, "value");
        const l = varName(scope.name || "link", t);
        const e = extra(l, t);
        const body = exceptQuery(n, { v: n1, where: `${qb.typed(x1, a.cls)}${x1} ${FA} ${n1}` }, { v: n2, where: `${qb.typed(x2, a.cls)}${x2} ${FA} ${n2} . ${qb.typed(l, L)}${l} ${A} ${x2} . ${e.text}` });
        push(rank, make("two-hop", { kind, p: fa.predicate.name, target: a.name, ...e.frame }, body, { mentions: e.mentions }));
      };
      minus("link-none", ia, () => ({ text: "", frame: {}, mentions: [] }));
      for (const [io, o] of own.entries()) {
        // a value of the link rows' own attribute, on a row that links an A
        const linked = new Set(a.seed.pairs.map((p) => p.s));
        const pick = o.pairs.find((p) => shortLiteral(p.o) && linked.has(p.s));
        if (!pick) continue;
        const value = pick.o.value.trim();
        minus("link-none-value", ia + io, (l) => ({ text: `${l} ${qb.iri(o.predicate.iri)} ${qb.term(pick.o)} . `, frame: { key: o.predicate.name, value }, mentions: [value] }));
      }
    }
    // by key columns alone: the A keys that no row of this class holds in its own key column ("the ids of the
    // singers without a membership")
    const ownKey = a.key && seeds.find((s) => keys.has(s.predicate.iri) && s.pairs.length >= 2 && s.pairs.filter((p) => rowKeyOf(a.seed.pairs.find((q) => q.s === p.s)?.o.value ?? "") === p.o.value).length >= 0.8 * s.pairs.length);
    if (a.key && ownKey) {
      const t = new Set<string>();
      const k = varName(a.key.predicate.name, t, "value");
      const x1 = varName(a.name, t, "a");
      const k1 = varName(`${a.key.predicate.name} all`, t, "value");
      const l = varName(scope.name || "link", t);
      const k2 = varName(`${ownKey.predicate.name} linked`, t, "value");
      push(
        0,
        make("two-hop", { kind: "link-none-key", p: a.key.predicate.name, target: a.name }, exceptQuery(k, { v: k1, where: `${qb.typed(x1, a.cls)}${x1} ${qb.iri(a.key.predicate.iri)} ${k1}` }, { v: k2, where: `${qb.typed(l, L)}${l} ${qb.iri(ownKey.predicate.iri)} ${k2}` })),
      );
    }
  }

  // both: the A things linked by one row with a value of the rows' own attribute and by another with a second value
  for (const a of sides) {
    const A = qb.iri(a.seed.predicate.iri);
    const target = new Map(a.seed.pairs.flatMap((p) => (p.o.type === "uri" ? [[p.s, p.o.value] as const] : [])));
    for (const [io, o] of own.entries()) {
      const valuesOf = new Map<string, Term[]>();
      for (const p of o.pairs) {
        const thing = target.get(p.s);
        if (!thing || !shortLiteral(p.o)) continue;
        const vs = valuesOf.get(thing) ?? [];
        if (!vs.some((v) => v.value === p.o.value)) vs.push(p.o);
        valuesOf.set(thing, vs);
      }
      const two = [...valuesOf.values()].find((vs) => vs.length >= 2);
      if (!two) continue;
      const [v1, v2] = two;
      for (const fa of a.attrs.slice(0, 1)) {
        const t = new Set<string>();
        const n = varName(fa.predicate.name, t, "value");
        const l1 = varName(scope.name || "link", t);
        const x1 = varName(a.name, t, "a");
        const l2 = varName(`${scope.name || "link"} other`, t);
        const x2 = varName(`${a.name} other`, t, "a");
        const n2 = varName(`${fa.predicate.name} other`, t, "value");
        const O = qb.iri(o.predicate.iri);
        const FA = qb.iri(fa.predicate.iri);
        const one = (l: string, x: string, w: string, v: Term) => `${qb.typed(l, L)}${l} ${O} ${qb.term(v)} ; ${A} ${x} . ${typedSide(x, a)}${x} ${FA} ${w} . `;
        push(
          io,
          make("two-hop", { kind: "link-both", p: fa.predicate.name, target: a.name, key: o.predicate.name, value: v1.value.trim(), value2: v2.value.trim() }, `SELECT DISTINCT ${n} WHERE { ${one(l1, x1, n, v1)}${one(l2, x2, n2, v2)}FILTER(${n} IN (${n2})) }`, {
            mentions: [v1.value.trim(), v2.value.trim()],
          }),
        );
      }
    }
  }
  const seen = new Map<string, number>();
  return out
    .sort((x, y) => x.rank - y.rank)
    .map((x) => x.c)
    .filter((c) => {
      const n = (seen.get(c.frame.kind) ?? 0) + 1;
      seen.set(c.frame.kind, n);
      return n <= PER_KIND;
    });
}
