// Candidates that ask for one attribute of the things another attribute picks out — the way people query tables:
// "the city of the store named X", "the ids of the aircraft with a distance above 1000", "the name of the product
// with the lowest price", "the phone and e-mail of customer X", "the names sorted by age, oldest first", and the
// same across a join ("the status of the bookings whose apartment has number X"). The filter and the projected
// attribute are any pair of the class's literal predicates (the base generators use its naming predicate only).
import type { Candidate, GeneratorEnv, Make } from "./frames";
import { eitherCandidates } from "./generators-either";
import { notValueCandidates } from "./generators-not-value";
import { idFirst } from "./generators-pairs";
import { varName } from "./query-builder";
import { keyColumns, literalSeed, shortLiteral, threshold, type Seed, type SeedScope } from "./seeds";

const KEYS = 8;
const ATTRIBUTES = 6;
const PAIRS = 4;
const JOIN_ATTRIBUTES = 3;


export function attributeCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  if (!scope.cls) return [];
  const lits = seeds.filter(literalSeed);
  const out: Candidate[] = [];
  const typedOf = (x: string) => qb.typed(x, scope.cls);
  const keys = keyColumns(seeds);
  // two attributes of every instance ("the start and end dates of all bookings")
  const firstFew = lits.slice(0, PAIRS);
  for (const [i, a] of firstFew.entries()) {
    for (const b of firstFew.slice(i + 1)) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const wa = varName(a.predicate.name, t, "value");
      const wb = varName(b.predicate.name, t, "value");
      out.push(make("class-list", { kind: "list-two", key: a.predicate.name, p: b.predicate.name }, `SELECT ${wa} ${wb} WHERE { ${typedOf(x)}${x} ${qb.iri(a.predicate.iri)} ${wa} ; ${qb.iri(b.predicate.iri)} ${wb} }`, { list: true }));
    }
  }
  // three attributes of every instance ("the first, middle and last names of all staff")
  for (const [i, a] of firstFew.entries()) {
    for (const [j, b] of firstFew.slice(i + 1).entries()) {
      for (const c of firstFew.slice(i + j + 2)) {
        const t = new Set<string>();
        const x = varName(scope.name || "x", t);
        const [wa, wb, wc] = [a, b, c].map((s) => varName(s.predicate.name, t, "value"));
        out.push(make("class-list", { kind: "list-two", key: a.predicate.name, p: b.predicate.name, q: c.predicate.name }, `SELECT ${wa} ${wb} ${wc} WHERE { ${typedOf(x)}${x} ${qb.iri(a.predicate.iri)} ${wa} ; ${qb.iri(b.predicate.iri)} ${wb} ; ${qb.iri(c.predicate.iri)} ${wc} }`, { list: true }));
      }
    }
  }
  // the things whose name (or another text) contains a word ("the organisations whose name contains Party"), and
  // another column of them ("the ids of the customers whose name contains Diana")
  for (const text of lits.filter((s) => (s.predicate.role === "name" || s.predicate.role === "text") && s.distinctShare >= 0.5).slice(0, 3)) {
    const word = containedWord(text);
    if (!word) continue;
    const W = qb.term({ type: "literal", value: word });
    const t = new Set<string>();
    const x = varName(scope.name || "x", t);
    const n = varName(text.predicate.name, t, "value");
    out.push(make("with-value", { kind: "contains", p: text.predicate.name, value: word }, `SELECT ${n} WHERE { ${typedOf(x)}${x} ${qb.iri(text.predicate.iri)} ${n} . FILTER(CONTAINS(${n}, ${W})) }`, { mentions: [word], unfiltered: scope.count }));
    const other = lits.find((s) => s !== text);
    if (!other) continue;
    const o = varName(other.predicate.name, t, "value");
    out.push(make("with-value", { kind: "contains", p: text.predicate.name, q: other.predicate.name, value: word }, `SELECT ${o} WHERE { ${typedOf(x)}${x} ${qb.iri(text.predicate.iri)} ${n} ; ${qb.iri(other.predicate.iri)} ${o} . FILTER(CONTAINS(${n}, ${W})) }`, { mentions: [word], unfiltered: scope.count }));
  }
  for (const [i, key] of lits.slice(0, KEYS).entries()) {
    const K = qb.iri(key.predicate.iri);
    const others = lits.filter((s) => s !== key).slice(0, ATTRIBUTES);
    // a value of the filter predicate, a different sample row per predicate
    const withValue = key.pairs.filter((pr) => shortLiteral(pr.o));
    const pick = withValue.length ? withValue[(i * 7) % withValue.length] : undefined;
    if (pick && ((key.predicate.role !== "number" && key.predicate.role !== "date") || keys.has(key.predicate.iri))) {
      const V = qb.term(pick.o);
      const value = pick.o.value.trim();
      for (const q of others) {
        const t = new Set<string>();
        const x = varName(scope.name || "x", t);
        const w = varName(q.predicate.name, t, "value");
        out.push(make("value-of", { kind: "value-of-by-key", p: q.predicate.name, key: key.predicate.name, value }, `SELECT ${w} WHERE { ${typedOf(x)}${x} ${K} ${V} ; ${qb.iri(q.predicate.iri)} ${w} }`, { mentions: [value] }));
      }
      // the key or id first, as people list them ("the id and market share of the browser X")
      const [a, b] = others.length >= 2 ? idFirst(others[0], others[1], keys) : [];
      if (a && b) {
        const t = new Set<string>();
        const x = varName(scope.name || "x", t);
        const wa = varName(a.predicate.name, t, "value");
        const wb = varName(b.predicate.name, t, "value");
        out.push(
          make("value-of", { kind: "value-of-by-key", p: a.predicate.name, q: b.predicate.name, key: key.predicate.name, value }, `SELECT ${wa} ${wb} WHERE { ${typedOf(x)}${x} ${K} ${V} ; ${qb.iri(a.predicate.iri)} ${wa} ; ${qb.iri(b.predicate.iri)} ${wb} }`, {
            mentions: [value],
          }),
        );
      }
    }
    if ((key.predicate.role !== "number" && key.predicate.role !== "date") || keys.has(key.predicate.iri)) continue;
    const numbers = key.pairs.map((pr) => Number(pr.o.value)).filter((n) => Number.isFinite(n));
    // a range: the lower and upper quartile of the sample ("between 600 and 700")
    const sorted = [...new Set(numbers)].sort((x, y) => x - y);
    const [lo, hi] = key.predicate.role === "number" && sorted.length >= 4 ? [qb.number(sorted[Math.floor(sorted.length / 4)]), qb.number(sorted[Math.floor((3 * sorted.length) / 4)])] : [];
    if (lo && hi && lo !== hi) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const v = varName(key.predicate.name, t, "value");
      const range = `FILTER(${v} >= ${lo} && ${v} <= ${hi})`;
      out.push(make("class-count", { kind: "count-between", p: key.predicate.name, n: lo, n2: hi }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typedOf(x)}${x} ${K} ${v} . ${range} }`, { mentions: [lo, hi], unfiltered: scope.count, runLimit: false }));
      const q = others.find((o) => o.predicate.iri === scope.nameBy?.iri) ?? others[0];
      if (q) {
        const w = varName(q.predicate.name, t, "value");
        out.push(make("numeric-filter", { kind: "numeric-between", p: key.predicate.name, key: q.predicate.name, n: lo, n2: hi }, `SELECT ${w} WHERE { ${typedOf(x)}${x} ${qb.iri(q.predicate.iri)} ${w} ; ${K} ${v} . ${range} }`, { mentions: [lo, hi], unfiltered: scope.count }));
      }
    }
    for (const q of others.filter((s) => s.predicate.role !== "number" || s.predicate.iri !== key.predicate.iri)) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const w = varName(q.predicate.name, t, "value");
      const v = varName(key.predicate.name, t, "value");
      const Q = qb.iri(q.predicate.iri);
      const body = `${typedOf(x)}${x} ${Q} ${w} ; ${K} ${v} .`;
      if (key.predicate.role === "number") {
        for (const dir of ["high", "low"] as const) {
          const m = threshold(numbers, dir, scope.count);
          if (m === undefined) continue;
          const n = qb.number(m);
          out.push(make("numeric-filter", { kind: "numeric-filter", p: key.predicate.name, key: q.predicate.name, n, dir }, `SELECT ${w} WHERE { ${body} FILTER(${v} ${dir === "high" ? ">" : "<"} ${n}) }`, { mentions: [n], unfiltered: scope.count }));
        }
      }
      for (const dir of ["high", "low"] as const) {
        out.push(make("superlative", { kind: "superlative", p: key.predicate.name, key: q.predicate.name, dir }, `SELECT ${w} WHERE { ${body} } ORDER BY ${dir === "high" ? "DESC" : "ASC"}(${v}) LIMIT 1`, { tie: { v: v.slice(1), k: 1 } }));
      }
      // two attributes of the top one ("the id and name of the aircraft with the longest range")
      const second = others.find((o) => o !== q && o.predicate.iri !== key.predicate.iri);
      if (second && q === others[0]) {
        const t2 = new Set(t);
        const w2 = varName(second.predicate.name, t2, "value");
        for (const dir of ["high", "low"] as const) {
          out.push(
            make("superlative", { kind: "superlative", p: key.predicate.name, key: q.predicate.name, q: second.predicate.name, dir }, `SELECT ${w} ${w2} WHERE { ${body} ${x} ${qb.iri(second.predicate.iri)} ${w2} . } ORDER BY ${dir === "high" ? "DESC" : "ASC"}(${v}) LIMIT 1`, {
              tie: { v: v.slice(1), k: 1 },
            }),
          );
        }
      }
      // an attribute beside the sort key, sorted ("the names and salaries of all employees sorted by salary")
      if (q === others[0]) {
        for (const dir of ["high", "low"] as const) {
          out.push(make("order", { kind: "list-sorted-by", p: key.predicate.name, key: q.predicate.name, q: key.predicate.name, dir }, `SELECT ${w} ${v} WHERE { ${body} } ORDER BY ${dir === "high" ? `DESC(${v})` : v}`, { list: true }));
        }
      }
      out.push(make("order", { kind: "list-sorted-by", p: key.predicate.name, key: q.predicate.name, dir: "high" }, `SELECT ${w} WHERE { ${body} } ORDER BY DESC(${v})`, { list: true }));
      out.push(make("order", { kind: "list-sorted-by", p: key.predicate.name, key: q.predicate.name, dir: "low" }, `SELECT ${w} WHERE { ${body} } ORDER BY ${v}`, { list: true }));
    }
  }
  // the rows whose text column is not a value (generators-not-value)
  out.push(...notValueCandidates(scope, seeds, env, make));
  out.push(...eitherCandidates(scope, seeds, env, make));
  return out;
}

/** Across an object predicate: an attribute of the things whose linked thing has a value, and the reverse. */
export function joinAttributeCandidates(scope: SeedScope, seed: Seed, seeds: Seed[], env: GeneratorEnv, make: Make): Candidate[] {
  const { qb } = env;
  if (!scope.cls) return [];
  const out: Candidate[] = [];
  const P = qb.iri(seed.predicate.iri);
  // the attributes asked for across a link: the naming column first, then the first others (each pair is a template)
  // then the other columns, key columns last (a row's own id is asked for less than what it holds)
  const all = seeds.filter(literalSeed);
  const keys = keyColumns(seeds);
  const rest = all.filter((s) => s.predicate.iri !== scope.nameBy?.iri);
  const lits = [...all.filter((s) => s.predicate.iri === scope.nameBy?.iri), ...rest.filter((s) => !keys.has(s.predicate.iri)), ...rest.filter((s) => keys.has(s.predicate.iri))].slice(0, JOIN_ATTRIBUTES);
  const target = seed.targetClass ? env.lexicon.displayName(seed.targetClass) : undefined;
  for (const join of env.joins.get(`${seed.predicate.iri} ${scope.cls}`) ?? []) {
    if (join.q.role === "object" || join.q.role === "other") continue;
    const Q = qb.iri(join.q.iri);
    const row = join.rows.find((r) => shortLiteral(r.o));
    // the things counted per value of the linked thing's attribute ("the number of exhibitions for each artist name"),
    // the value with the most, the values shared by more than one; and an attribute of each beside the linked one's
    // outside tables, the linked thing's name is the thing itself: "the label of the country of X" asks for the country
    const nameHop = join.q.role === "name" && !scope.rows;
    // grouped by and listed beside: a short value (a category or a name), not a description
    const short = join.rows.length > 0 && join.rows.every((r) => shortLiteral(r.o));
    if (join.q.role !== "number" && join.q.role !== "date" && !nameHop && short) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const y = varName(target ?? seed.predicate.name, t, "y");
      const g = varName(join.q.name, t, "value");
      const body = `${qb.typed(x, scope.cls)}${x} ${P} ${y} . ${scope.rows ? qb.typed(y, seed.targetClass) : ""}${y} ${Q} ${g} .`;
      const frame = { p: seed.predicate.name, q: join.q.name, ...(target ? { target } : {}) };
      out.push(make("count-per-group", { kind: "join-count-per-group", ...frame }, `SELECT ${g} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${g}`));
      out.push(make("count-per-group", { kind: "join-group-most", ...frame }, `SELECT ${g} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${g} ORDER BY DESC(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
      out.push(make("count-per-group", { kind: "join-group-most", ...frame, dir: "low" }, `SELECT ${g} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${body} } GROUP BY ${g} ORDER BY ASC(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
      out.push(make("count-per-group", { kind: "join-group-having", ...frame, n: "1" }, `SELECT ${g} WHERE { ${body} } GROUP BY ${g} HAVING (COUNT(DISTINCT ${x}) > 1)`));
      const a = lits.find((l) => l.predicate.iri === scope.nameBy?.iri) ?? lits[0];
      if (a) {
        const w = varName(a.predicate.name, t, "value");
        out.push(make("two-hop", { kind: "join-list-two", ...frame, key: a.predicate.name }, `SELECT ${w} ${g} WHERE { ${qb.typed(x, scope.cls)}${x} ${qb.iri(a.predicate.iri)} ${w} ; ${P} ${y} . ${scope.rows ? qb.typed(y, seed.targetClass) : ""}${y} ${Q} ${g} . }`, { list: true }));
      }
    }
    for (const a of lits) {
      const t = new Set<string>();
      const x = varName(scope.name || "x", t);
      const y = varName(target ?? seed.predicate.name, t, "y");
      const typedY = scope.rows ? qb.typed(y, seed.targetClass) : "";
      const A = qb.iri(a.predicate.iri);
      // an attribute of the things whose linked thing has a value
      if (row && a.predicate.iri !== scope.nameBy?.iri) {
        const w = varName(a.predicate.name, t, "value");
        const value = row.o.value.trim();
        out.push(
          make("two-hop", { kind: "join-filter", p: seed.predicate.name, q: join.q.name, key: a.predicate.name, value, ...(target ? { target } : {}) }, `SELECT ${w} WHERE { ${qb.typed(x, scope.cls)}${x} ${A} ${w} ; ${P} ${y} . ${typedY}${y} ${Q} ${qb.term(row.o)} }`, {
            mentions: [value],
            unfiltered: scope.count,
          }),
        );
      }
      // the linked thing's attribute for the things with a value ("the city of the store named X")
      const own = a.pairs.find((pr) => shortLiteral(pr.o) && join.rows.some((r) => r.s === pr.s));
      if (own && !nameHop) {
        const w = varName(join.q.name, t, "value");
        const value = own.o.value.trim();
        out.push(
          make("two-hop", { kind: "chain-by-key", p: seed.predicate.name, q: join.q.name, key: a.predicate.name, value, ...(target ? { target } : {}) }, `SELECT ${w} WHERE { ${qb.typed(x, scope.cls)}${x} ${A} ${qb.term(own.o)} ; ${P} ${y} . ${typedY}${y} ${Q} ${w} }`, {
            mentions: [value],
          }),
        );
      }
    }
  }
  return out;
}

/** A word of a sampled text that some but not all of the column's values hold (what "contains" asks for). */
function containedWord(text: Seed): string | undefined {
  const values = text.pairs.flatMap((pr) => (pr.o.type === "literal" ? [pr.o.value] : []));
  const words = values.flatMap((v) => v.match(/\p{L}{4,}/gu) ?? []);
  return words.find((w) => values.filter((v) => v.includes(w)).length < values.length);
}
