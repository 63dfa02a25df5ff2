// The wider pass (examples.ts): once every candidate of the first pass has run and the pool still has room — a small
// KG — the same kinds of question over more of a class's columns, more combinations and more values than the first
// pass's width limits reach: two or three columns listed with a key or id first, the top row with its name and one or
// two other columns, every set of aggregates of a measure, a measure aggregated per any short text column and over the
// rows with any of its values, two columns sorted by every measure, a measure's filter asking for the name beside it,
// the rows whose text is not a value asked two columns at a time, how many different values any column has, the linked
// row with the most rows named by other columns; and between entities, what two entities' relations share ("which
// members of the first group are also in the second"). Which columns: by role, order and repeats, never by any KG's
// words. Width, not new kinds: a KG that fills the pool in the first pass never gets here.
import { interleave, type Candidate, type Frame, type GeneratorEnv, type Make } from "./frames";
import { mentionOf, scopeCandidates } from "./generators";
import { holdsOwnKey, namingPair } from "./generators-groups";
import { frequentValue, yearLike } from "./generators-values";
import { candidateMaker } from "./make-candidate";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, shortLiteral, threshold, type Seed, type SeedScope } from "./seeds";

/** a class's columns combined (two or three listed, beside a top row's name) */
const COLUMNS = 6;
/** measures a top row, a sort, a filter or an aggregate is asked by */
const MEASURES = 4;
/** text columns that group rows or pick them by a value */
const GROUPS = 4;
/** the aggregate sets the first pass leaves out (in the order people name them: average, highest, lowest, total) */
const AGG_SETS: NonNullable<Frame["aggs"]>[] = [["max", "sum"], ["min", "sum"], ["avg", "max", "sum"], ["avg", "min", "sum"], ["max", "min", "sum"], ["avg", "max", "min", "sum"]];
const AGGS = ["avg", "sum", "max", "min"] as const;
/** pairs of relations whose shared values are asked, per scope */
const SHARED = 12;

/** predicates a scope reads in the wider pass (the first pass: examples.ts PREDICATES_PER_SCOPE) */
export const WIDER_PREDICATES = 40;

const short = (s: Seed) => s.pairs.length > 0 && s.pairs.every((p) => shortLiteral(p.o));

/**
 * A scope's wider-pass candidates. With predicates the first pass did not read (`more`: their seeds), every generator
 * runs again over all of them — the first pass's shapes come again and are dropped unrun as the same structure.
 */
export function widerScopeCandidates(scope: SeedScope, seeds: Seed[], more: Seed[], env: GeneratorEnv, order: (all: Seed[]) => Seed[]): Candidate[] {
  if (more.length === 0) return widerCandidates(scope, seeds, env);
  const all = order([...seeds, ...more]);
  const wide = { ...scope, predicates: [...scope.predicates, ...more.map((s) => s.predicate)] };
  return [...scopeCandidates(wide, all, env).flat(), ...widerCandidates(wide, all, env)];
}

export function widerCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv): Candidate[] {
  const make = candidateMaker(scope, env);
  return [...columnCandidates(scope, seeds, env, make), ...sharedCandidates(scope, seeds, env, make)];
}

function columnCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const cls = scope.cls;
  if (!cls) return [];
  const lits = seeds.filter(literalSeed);
  const keys = keyColumns(seeds);
  const isId = (s: Seed) => keys.has(s.predicate.iri) || s.predicate.role === "id";
  // what names a row: its naming column, else (when that is an id) its first name or text column
  const named = lits.find((s) => s.predicate.iri === scope.nameBy?.iri);
  const name = named && !isId(named) ? named : (lits.find((s) => s.predicate.role === "name" && !isId(s)) ?? lits.find((s) => s.predicate.role === "text" && !isId(s) && short(s)));
  const firstId = lits.find((s) => isId(s) && s !== name);
  const cols = lits.slice(0, COLUMNS);
  if (firstId && !cols.includes(firstId)) cols.push(firstId);
  // as people list columns: a key or id first, then the name, then the others in the table's order
  const listed = (ss: Seed[]) => [...ss].sort((a, b) => (isId(a) ? 0 : a === name ? 1 : 2) - (isId(b) ? 0 : b === name ? 1 : 2) || lits.indexOf(a) - lits.indexOf(b));
  const measures = lits.filter((s) => (s.predicate.role === "number" || s.predicate.role === "date") && !keys.has(s.predicate.iri)).slice(0, MEASURES);
  const numbers = measures.filter((s) => s.predicate.role === "number" && !yearLike(s));
  const texts = lits.filter((s) => (s.predicate.role === "text" || s.predicate.role === "name") && !keys.has(s.predicate.iri) && short(s)).slice(0, GROUPS);
  /** `?x a C ; A ?a ; B ?b …` with a variable per column (named for it) and the extra columns' triples */
  const rowOf = (ss: Seed[]) => {
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const vs = ss.map((s) => varName(s.predicate.name, t, "value"));
    return { t, x, vs, where: `${qb.typed(x, cls)}${x} ${ss.map((s, i) => `${qb.iri(s.predicate.iri)} ${vs[i]}`).join(" ; ")} .` };
  };
  const uniq = (ss: Seed[]) => [...new Set(ss)];

  // two and three columns of every row
  const lists: Candidate[] = [];
  for (const [i, a] of cols.entries()) {
    for (const [j, b] of cols.slice(i + 1).entries()) {
      const [p, q] = listed([a, b]);
      const r = rowOf([p, q]);
      lists.push(make("class-list", { kind: "list-two", key: p.predicate.name, p: q.predicate.name }, `SELECT ${r.vs.join(" ")} WHERE { ${r.where} }`, { list: true }));
      for (const c of cols.slice(i + j + 2)) {
        const three = listed([a, b, c]);
        const r3 = rowOf(three);
        lists.push(make("class-list", { kind: "list-two", key: three[0].predicate.name, p: three[1].predicate.name, q: three[2].predicate.name }, `SELECT ${r3.vs.join(" ")} WHERE { ${r3.where} }`, { list: true }));
      }
    }
  }

  // the top row by each measure: its name beside another column, or two others; its id beside its name
  const tops: Candidate[] = [];
  const others = name ? cols.filter((s) => s !== name && !isId(s)) : [];
  // the highest first (asked more), each measure's pairs before its triples (in both orders: the table's is unknown)
  for (const dir of ["high", "low"] as const) {
    for (const m of measures) {
      const order = (v: string) => `ORDER BY ${dir === "high" ? "DESC" : "ASC"}(${v}) LIMIT 1`;
      const rest = others.filter((c) => c !== m);
      const shown: Seed[][] = name ? [...rest.map((c) => [name, c]), ...(firstId ? [[firstId, name]] : []), ...rest.slice(0, 3).flatMap((c, k, few) => few.slice(k + 1).flatMap((d) => [[name, c, d], [name, d, c]]))] : [];
      for (const ss of shown) {
        const r = rowOf(uniq([...ss, m]));
        const v = r.vs[r.vs.length - 1];
        const f: Frame = { kind: "superlative", p: m.predicate.name, key: ss[0].predicate.name, q: ss[1].predicate.name, dir, ...(ss[2] ? { also: ss[2].predicate.name } : {}) };
        tops.push(make("superlative", f, `SELECT ${r.vs.slice(0, ss.length).join(" ")} WHERE { ${r.where} } ${order(v)}`, { tie: { v: v.slice(1), k: 1 } }));
      }
    }
  }

  // every set of aggregates of a measure
  const aggregates: Candidate[] = numbers.flatMap((m) =>
    AGG_SETS.map((aggs) => {
      const r = rowOf([m]);
      return make("aggregate", { kind: "aggregates", p: m.predicate.name, aggs }, `SELECT ${aggs.map((a) => `(${a.toUpperCase()}(${r.vs[0]}) AS ?${a})`).join(" ")} WHERE { ${r.where} }`, { runLimit: false });
    }),
  );

  // a measure aggregated per a short text column (a name too: "the total of each"), and over the rows with its most
  // frequent value
  const perGroup: Candidate[][] = [];
  const withValue: Candidate[][] = [];
  for (const g of texts) {
    const mine = numbers.filter((m) => m !== g);
    // a column whose values hardly repeat groups one row each: every aggregate reads the same, the total is asked
    const aggs = g.distinctShare >= 0.9 ? (["sum"] as const) : AGGS;
    perGroup.push(
      mine.flatMap((m) =>
        aggs.map((agg) => {
          const t = new Set<string>();
          const x = varName(scope.name || "x", t);
          const v = varName(m.predicate.name, t, "value");
          const gv = varName(g.predicate.name, t, "group");
          return make("aggregate", { kind: "aggregate-per-group", p: m.predicate.name, q: g.predicate.name, agg }, `SELECT ${gv} (${agg.toUpperCase()}(${v}) AS ?${agg}) WHERE { ${qb.typed(x, cls)}${x} ${qb.iri(g.predicate.iri)} ${gv} ; ${qb.iri(m.predicate.iri)} ${v} } GROUP BY ${gv}`);
        }),
      ),
    );
    // over the rows of a value several rows share; a text that hardly repeats too ("whose city is X": people do not know
    // it is one row), never a name (one row's "total" by its own name)
    const pick = frequentValue(g) ?? (g.predicate.role === "text" ? g.pairs.find((pr) => shortLiteral(pr.o))?.o : undefined);
    if (!pick) continue;
    const value = pick.value.trim();
    withValue.push(
      mine.flatMap((m) =>
        AGGS.map((agg) => {
          const r = rowOf([m]);
          return make("aggregate", { kind: "aggregate-with-value", p: m.predicate.name, key: g.predicate.name, value, agg }, `SELECT (${agg.toUpperCase()}(${r.vs[0]}) AS ?${agg}) WHERE { ${r.where} ${r.x} ${qb.iri(g.predicate.iri)} ${qb.term(pick)} . }`, { mentions: [value], runLimit: false });
        }),
      ),
    );
  }

  // the name beside each other column, sorted by each measure either way; and beside a measure's own filter
  const sorted: Candidate[] = [];
  const filtered: Candidate[] = [];
  if (name) {
    for (const m of measures) {
      for (const b of others.filter((c) => c !== m)) {
        const r = rowOf([name, b, m]);
        for (const dir of ["high", "low"] as const) {
          sorted.push(make("order", { kind: "pair-sorted", key: name.predicate.name, q: b.predicate.name, p: m.predicate.name, dir }, `SELECT ${r.vs[0]} ${r.vs[1]} WHERE { ${r.where} } ORDER BY ${dir === "high" ? `DESC(${r.vs[2]})` : r.vs[2]}`, { list: true }));
        }
      }
    }
    for (const m of numbers) {
      const values = m.pairs.map((pr) => Number(pr.o.value)).filter((n) => Number.isFinite(n));
      for (const dir of ["high", "low"] as const) {
        const mid = threshold(values, dir, scope.count);
        if (mid === undefined) continue;
        const n = qb.number(mid);
        const r = rowOf([name, m]);
        filtered.push(make("numeric-filter", { kind: "numeric-filter", p: m.predicate.name, key: name.predicate.name, q: m.predicate.name, n, dir }, `SELECT ${r.vs.join(" ")} WHERE { ${r.where} FILTER(${r.vs[1]} ${dir === "high" ? ">" : "<"} ${n}) }`, { mentions: [n], unfiltered: scope.count }));
      }
    }
  }

  // how many rows reach a measure's bound, the bound included (the first pass counts "greater than"): at least, at most
  const counted: Candidate[] = [];
  for (const m of numbers) {
    const values = m.pairs.map((pr) => Number(pr.o.value)).filter((n) => Number.isFinite(n));
    for (const [dir, op] of [["high", ">="], ["low", "<="]] as const) {
      const mid = threshold(values, dir, scope.count);
      if (mid === undefined) continue;
      const n = qb.number(mid);
      const r = rowOf([m]);
      counted.push(make("numeric-filter", { kind: "count-filter", p: m.predicate.name, n, dir, ...(op.endsWith("=") ? { inclusive: true } : {}) }, `SELECT (COUNT(DISTINCT ${r.x}) AS ?count) WHERE { ${r.where} FILTER(${r.vs[0]} ${op} ${n}) }`, { mentions: [n], unfiltered: scope.count, runLimit: false }));
    }
  }

  // the rows whose text is not a value, two columns at a time (the first pass asks categories only)
  const notValue: Candidate[] = [];
  for (const k of texts.filter((s) => s !== name)) {
    const pick = k.pairs.find((pr) => shortLiteral(pr.o));
    const asked = [...(name ? [name] : []), ...cols.filter((s) => s !== k && s !== name && !keys.has(s.predicate.iri))];
    if (!pick || asked.length < 2) continue;
    const value = pick.o.value.trim();
    for (const q of asked.slice(1, 3)) {
      const r = rowOf([asked[0], q, k]);
      notValue.push(make("with-value", { kind: "pair-not-value", p: asked[0].predicate.name, q: q.predicate.name, key: k.predicate.name, value }, `SELECT ${r.vs[0]} ${r.vs[1]} WHERE { ${r.where} FILTER(${r.vs[2]} != ${qb.term(pick.o)}) }`, { mentions: [value], unfiltered: scope.count }));
    }
  }

  // how many different values of any column but the row's own key (as many as rows)
  const distinct = lits.filter((s) => !holdsOwnKey(s)).map((s) => {
    const r = rowOf([s]);
    return make("class-count", { kind: "count-distinct", p: s.predicate.name }, `SELECT (COUNT(DISTINCT ${r.vs[0]}) AS ?count) WHERE { ${r.where} }`, { runLimit: false });
  });

  return [...interleave([lists, tops, aggregates, interleave(perGroup), interleave(withValue), sorted, filtered, counted, notValue, distinct]), ...linkedMost(scope, seeds, env, make), ...joinLists(scope, name, others, seeds, env, make)];
}

/** Two columns of each row beside its linked row's name ("the name and date of each race and its venue name"). */
function joinLists(scope: SeedScope, name: Seed | undefined, others: Seed[], seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const C = scope.cls;
  if (!C || !scope.rows || !name) return [];
  const out: Candidate[] = [];
  for (const link of seeds.filter((s) => s.predicate.role === "object" && s.targetClass && s.targetClass !== C)) {
    const joins = env.joins.get(`${link.predicate.iri} ${C}`) ?? [];
    const nameOf = env.classes?.get(link.targetClass ?? "")?.scope.nameBy?.iri;
    const hop = joins.find((j) => j.q.iri === nameOf && j.q.role !== "id") ?? joins.find((j) => j.q.role === "name" || j.q.role === "text");
    if (!hop) continue;
    const target = env.lexicon.displayName(link.targetClass ?? "");
    for (const b of others.slice(0, 3)) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const y = varName(target ?? "y", t, "y");
      const [wa, wb, wc] = [name.predicate.name, b.predicate.name, hop.q.name].map((n) => varName(n, t, "value"));
      const body = `${qb.typed(x, C)}${x} ${qb.iri(name.predicate.iri)} ${wa} ; ${qb.iri(b.predicate.iri)} ${wb} ; ${qb.iri(link.predicate.iri)} ${y} . ${qb.typed(y, link.targetClass)}${y} ${qb.iri(hop.q.iri)} ${wc} .`;
      out.push(make("two-hop", { kind: "join-list-two", p: link.predicate.name, q: hop.q.name, key: name.predicate.name, also: b.predicate.name, ...(target ? { target } : {}) }, `SELECT ${wa} ${wb} ${wc} WHERE { ${body} }`, { list: true }));
    }
  }
  return out;
}

/** The linked row with the most rows referring to it, named by its name and each other column (the first pass: one pair). */
function linkedMost(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  const C = scope.cls;
  if (!C || !scope.rows) return [];
  const out: Candidate[] = [];
  for (const link of seeds.filter((s) => s.predicate.role === "object" && s.targetClass && s.targetClass !== C)) {
    const other = env.classes?.get(link.targetClass ?? "");
    if (!other?.scope.rows) continue;
    const first = namingPair(other.seeds, other.scope.nameBy?.iri);
    const name = other.seeds.find((s) => s.predicate.iri === other.scope.nameBy?.iri);
    if (!name) continue;
    const target = env.lexicon.displayName(link.targetClass ?? "") ?? other.scope.name;
    for (const b of other.seeds.filter((s) => literalSeed(s) && short(s) && s !== name && s !== first?.[0]).slice(0, COLUMNS)) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const y = varName(target || "y", t, "y");
      const [wa, wb] = [name, b].map((s) => varName(s.predicate.name, t, "value"));
      const body = `${qb.typed(x, C)}${x} ${qb.iri(link.predicate.iri)} ${y} . ${qb.typed(y, link.targetClass)}${y} ${qb.iri(name.predicate.iri)} ${wa} ; ${qb.iri(b.predicate.iri)} ${wb} .`;
      const f = { p: link.predicate.name, key: name.predicate.name, q: b.predicate.name, target };
      out.push(make("count-per-group", { kind: "join-pair-most", ...f, dir: "high" }, `SELECT ${wa} ${wb} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${wa} ${wb} ORDER BY DESC(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
    }
  }
  return out;
}

/**
 * What two entities' relations share: the values of A's relation that are also values of B's (the same relation or
 * another). Entities named by IRI (not rows of tables): a value both samples hold picks A and B.
 */
function sharedCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  if (scope.rows) return [];
  const links = seeds.filter((s) => s.predicate.role === "object");
  const out: Candidate[] = [];
  for (const [i, P] of links.entries()) {
    for (const Q of links.slice(i)) {
      const holders = new Map<string, string[]>();
      for (const pr of Q.pairs) holders.set(pr.o.value, [...(holders.get(pr.o.value) ?? []), pr.s]);
      const found = P.pairs
        .map((pr) => ({ a: pr.s, b: (holders.get(pr.o.value) ?? []).find((s) => s !== pr.s) }))
        .map((e) => ({ ...e, ma: mentionOf(env.lexicon, e.a), mb: e.b ? mentionOf(env.lexicon, e.b) : undefined }))
        .find((e) => e.b && e.ma && e.mb && e.ma !== e.mb);
      if (!found?.b || !found.ma || !found.mb) continue;
      const v = varName(P.targetClass ? (env.lexicon.displayName(P.targetClass) ?? "value") : "value", new Set(), "value");
      const target = P.targetClass ? env.lexicon.displayName(P.targetClass) : undefined;
      out.push(
        make("two-hop", { kind: "shared-value", p: P.predicate.name, q: Q.predicate.name, entity: found.ma, entity2: found.mb, ...(target ? { target } : {}) }, `SELECT ${v} WHERE { ${qb.iri(found.a)} ${qb.iri(P.predicate.iri)} ${v} . ${qb.iri(found.b)} ${qb.iri(Q.predicate.iri)} ${v} . }`, {
          mentions: [found.ma, found.mb],
        }),
      );
      if (out.length >= SHARED) return out;
    }
  }
  return out;
}
