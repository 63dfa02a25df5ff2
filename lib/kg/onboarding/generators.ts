// Candidate solved examples built from the KG's own shapes: per class (or for resources without a class) and per
// predicate, the kinds of question people ask — lists and counts, the value for an entity, the entities with a
// value, numeric and date filters, superlatives and aggregates, counts per group, two-hop joins through object
// properties, comparisons of two entities, yes/no. Nothing here names any KG's vocabulary: every IRI, name and value
// comes from the profile and the seeds. Each candidate is executed later (execute.ts) and kept only when its answer
// is small and not degenerate.
import type { Lexicon } from "@/lib/kg/lexicon";
import type { Term } from "@/lib/kg/types";
import type { ProfilePredicate } from "./types";
import { repeats, type Candidate, type GeneratorEnv, type Make } from "./frames";
import { attributeCandidates, joinAttributeCandidates } from "./generators-attributes";
import { linkCandidates } from "./generators-links";
import { linkCompareCandidates } from "./generators-link-compare";
import { groupCandidates } from "./generators-groups";
import { pairCandidates } from "./generators-pairs";
import { setCandidates } from "./generators-sets";
import { valueCandidates } from "./generators-values";
import { candidateMaker } from "./make-candidate";
import { spreadIndex, varName } from "./query-builder";
import { isBlankKey, keyColumns, nameFor, threshold, type Seed, type SeedScope } from "./seeds";

const DATE_DT = /#(date|dateTime|dateTimeStamp)$/;
const UUID_LIKE = /^[0-9a-f]{8}-?[0-9a-f]{4}/i;

/** How a question writes an entity: its name, or for a nameless id the first 8 characters (as people quote ids). */
export function mentionOf(lexicon: Lexicon, value: string): string | undefined {
  // a blank node has no name a question could write
  if (isBlankKey(value)) return undefined;
  const local = value.slice(Math.max(value.lastIndexOf("/"), value.lastIndexOf("#"), value.lastIndexOf(":")) + 1);
  // a key=value id (tables mapped to RDF): people name the row by its key's value
  const keyed = /^[^=;]+=([^=;]+)$/.exec(local);
  if (keyed) {
    try {
      return decodeURIComponent(keyed[1]);
    } catch {
      return keyed[1];
    }
  }
  const n = nameFor(lexicon, value);
  if (n) return n;
  return UUID_LIKE.test(local) ? local.slice(0, 8) : undefined;
}

/** A literal's text as a question writes it; undefined when too long to quote. */
function literalText(t: Term): string | undefined {
  const v = t.value.trim();
  return t.type === "literal" && v && v.length <= 60 ? v : undefined;
}

function valueMention(env: GeneratorEnv, t: Term): string | undefined {
  return t.type === "uri" ? mentionOf(env.lexicon, t.value) : literalText(t);
}

/** The most frequent values of a seed (ties: first seen), with a mention each. */
function frequentValues(env: GeneratorEnv, seed: Seed, n: number): { term: Term; mention: string; count: number }[] {
  const counts = new Map<string, { term: Term; count: number }>();
  for (const { o } of seed.pairs) {
    const key = `${o.type} ${o.value}`;
    const e = counts.get(key) ?? { term: o, count: 0 };
    e.count++;
    counts.set(key, e);
  }
  return [...counts.values()]
    .sort((a, b) => b.count - a.count)
    .flatMap((e) => {
      const mention = valueMention(env, e.term);
      return mention ? [{ ...e, mention }] : [];
    })
    .slice(0, n);
}

/**
 * Subjects of a seed with a mention. Spread over the class: the subjects with the most facts in the scope's samples
 * (sorted, deterministic) taken from a different starting point per predicate (`turn`), so the questions do not all
 * name the same (say, the first or last stored) entity.
 */
function namedSubjects(env: GeneratorEnv, seed: Seed, n: number, spread?: { facts: Map<string, number>; turn: number }): { s: string; o: Term; mention: string }[] {
  const first = new Map<string, { s: string; o: Term }>();
  for (const pair of seed.pairs) if (!first.has(pair.s)) first.set(pair.s, pair);
  let order = [...first.values()];
  if (spread && order.length > 1) {
    const facts = (s: string) => spread.facts.get(s) ?? 0;
    order.sort((a, b) => facts(b.s) - facts(a.s) || (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    // the richer half (at least two), rotated
    const rich = order.filter((e) => facts(e.s) >= facts(order[Math.floor((order.length - 1) / 2)].s));
    const k = spread.turn % rich.length;
    order = [...rich.slice(k), ...rich.slice(0, k), ...order.filter((e) => !rich.includes(e))];
  }
  const out: { s: string; o: Term; mention: string }[] = [];
  for (const pair of order) {
    const mention = mentionOf(env.lexicon, pair.s);
    if (mention && mention !== valueMention(env, pair.o)) out.push({ ...pair, mention });
    if (out.length >= n) break;
  }
  return out;
}

/** The entity's value of its naming predicate (a short one), from the lexicon. */
function keyOf(env: GeneratorEnv, entity: string, predicate: string): { text: string; lang?: string } | undefined {
  const n = env.lexicon.namesOf(entity).find((x) => x.source.kind === "predicate" && x.source.predicate === predicate);
  return n && n.text.length <= 60 ? { text: n.text, ...(n.lang ? { lang: n.lang } : {}) } : undefined;
}

const numbersOf = (seed: Seed) => seed.pairs.map((p) => Number(p.o.value)).filter((n) => Number.isFinite(n));

/** One scope's candidates, grouped by generator (the runner interleaves them so every shape gets its turn). */
export function scopeCandidates(scope: SeedScope, seeds: Seed[], env: GeneratorEnv): Candidate[][] {
  const { qb } = env;
  const cls = scope.cls;
  const S = scope.name || undefined;
  const groups: Candidate[][] = [];
  const make = candidateMaker(scope, env);
  const vars = () => new Set<string>();
  const nameBy = scope.nameBy;
  const projectNames = !!(scope.projectNames && nameBy);

  // the class itself: list, names, count
  if (cls) {
    const t = vars();
    const x = varName(S ?? "x", t);
    // rows of a table have no IRI a person would want listed
    const own: Candidate[] = scope.rows ? [] : [make("class-list", { kind: "list" }, `SELECT ${x} WHERE { ${qb.typed(x, cls)}}`, { list: true })];
    if (nameBy) {
      const n = varName(nameBy.name, t);
      own.push(make("class-list", { kind: "list-names", p: nameBy.name }, `SELECT ${n} WHERE { ${qb.typed(x, cls)}${x} ${qb.iri(nameBy.iri)} ${n} }`, { list: true }));
    }
    own.push(make("class-count", { kind: "count" }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${qb.typed(x, cls)}}`, { runLimit: false }));
    groups.push(own);
  }

  // how many of the scope's sampled predicates each subject has (entities with many facts make better examples)
  const facts = new Map<string, number>();
  for (const sd of seeds) for (const subject of new Set(sd.pairs.map((pr) => pr.s))) facts.set(subject, (facts.get(subject) ?? 0) + 1);
  const keys = keyColumns(seeds);
  // what groups the rows: categories, then texts and names whose values repeat ("the average age for each job")
  const categories = [...seeds.filter((sd) => sd.distinctShare <= 0.5 && (sd.predicate.role === "text" || sd.predicate.role === "object")), ...seeds.filter((sd) => sd.distinctShare > 0.5 && sd.distinctShare < 1 && sd.pairs.length >= 3 && !keys.has(sd.predicate.iri) && (sd.predicate.role === "text" || sd.predicate.role === "name"))].map((sd) => sd.predicate);
  for (const [turn, seed] of seeds.entries()) {
    // a key column is listed and looked up by (generators-attributes), not summed, ranked or grouped
    if (keys.has(seed.predicate.iri)) {
      const t = vars();
      const v = varName(seed.predicate.name, t, "value");
      const x = varName(S ?? "x", t);
      if (cls) groups.push([make("class-list", { kind: "list-attribute", p: seed.predicate.name }, `SELECT ${v} WHERE { ${qb.typed(x, cls)}${x} ${qb.iri(seed.predicate.iri)} ${v} }`, { list: true })]);
      continue;
    }
    const spread = { facts, turn };
    const p = seed.predicate;
    const P = qb.iri(p.iri);
    // a date read as a relation ("done on") is asked per date, not per "thing"
    const target = seed.targetClass ? env.lexicon.displayName(seed.targetClass) : p.role === "date" ? "date" : undefined;
    const tgt = target ? { target } : {};
    // a value that (nearly) names one instance: asking which instance has it looks the thing up by its own key
    const keyed = p.role === "id" || p.iri === nameBy?.iri || (p.role === "number" && seed.distinctShare >= 0.9);
    const out: Candidate[] = [];
    const t = vars();
    const x = varName(S ?? "x", t);
    const v = varName(p.name, t, "value");
    const typed = qb.typed(x, cls);
    // what a filter's answer projects: the entity, or its name when the entities' IRIs do not read as names
    const nameVar = projectNames && nameBy && nameBy.iri !== p.iri ? varName(nameBy.name, t) : undefined;
    const answer = nameVar ? `${nameVar}` : x;
    const nameTriple = nameVar && nameBy ? `${x} ${qb.iri(nameBy.iri)} ${nameVar} . ` : "";
    const names = !!nameVar;
    const literal = p.role !== "object";

    if (literal && cls) {
      out.push(make("class-list", { kind: "list-attribute", p: p.name }, `SELECT ${v} WHERE { ${typed}${x} ${P} ${v} }`, { list: true }));
      if (p.role === "number" || p.role === "date" || p.role === "text" || p.role === "name") {
        out.push(make("order", { kind: "list-ordered", p: p.name }, `SELECT ${v} WHERE { ${typed}${x} ${P} ${v} } ORDER BY ${v}`, { list: true }));
      }
      if (nameBy && nameBy.iri !== p.iri) {
        const n = varName(nameBy.name, t);
        out.push(make("class-list", { kind: "list-two", p: p.name, key: nameBy.name }, `SELECT ${n} ${v} WHERE { ${typed}${x} ${qb.iri(nameBy.iri)} ${n} ; ${P} ${v} }`, { list: true }));
      }
      if (p.coverage < 0.95) out.push(make("class-count", { kind: "count-with-attribute", p: p.name }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${v} }`, { unfiltered: scope.count, runLimit: false }));
      // how many different values: a category, not a name or a measure of each
      if (seed.distinctShare < 0.9 && p.role !== "name" && p.role !== "id") {
        out.push(make("class-count", { kind: "count-distinct", p: p.name }, `SELECT (COUNT(DISTINCT ${v}) AS ?count) WHERE { ${typed}${x} ${P} ${v} }`, { runLimit: false }));
      }
      // the names sorted by a measure or a date
      if (nameBy && nameBy.iri !== p.iri && (p.role === "number" || p.role === "date")) {
        const n = varName(nameBy.name, t);
        out.push(make("order", { kind: "list-sorted-by", p: p.name, key: nameBy.name }, `SELECT ${n} WHERE { ${typed}${x} ${qb.iri(nameBy.iri)} ${n} ; ${P} ${v} } ORDER BY ${v}`, { list: true }));
      }
    }

    // the value for an entity (by IRI), and for an entity named by its key (the class's naming predicate)
    // on a table, a row whose value does not merely repeat its name (an echo is rejected, and the structure with it)
    const subjects = namedSubjects(env, seed, scope.rows ? 4 : 2, spread);
    const plain = (e: (typeof subjects)[number]) => !(nameBy && repeats(keyOf(env, e.s, nameBy.iri)?.text ?? "", valueMention(env, e.o) ?? ""));
    for (const e of scope.rows ? [...subjects.filter(plain), ...subjects].slice(0, 1) : subjects) {
      // entities people name by a key value (opaque or key=value IRIs) are asked about by that value, not by IRI
      if (!scope.rows) out.push(make("value-of", { kind: "value-of", p: p.name, entity: e.mention }, `SELECT ${v} WHERE { ${qb.iri(e.s)} ${P} ${v} }`, { mentions: [e.mention] }));
      if (cls && nameBy && nameBy.iri !== p.iri) {
        const key = keyOf(env, e.s, nameBy.iri);
        if (key) {
          const keyTerm: Term = { type: "literal", value: key.text, ...(key.lang ? { "xml:lang": key.lang } : {}) };
          out.push(make("value-of", { kind: "value-of-by-key", p: p.name, key: nameBy.name, value: key.text }, `SELECT ${v} WHERE { ${typed}${x} ${qb.iri(nameBy.iri)} ${qb.term(keyTerm)} ; ${P} ${v} }`, { mentions: [key.text] }));
        }
      }
      break;
    }

    // entities with a value (categories, object values), their count, counts per group
    const categorical = p.role === "object" || p.role === "text" || p.role === "boolean" || (p.role === "number" && seed.distinctShare <= 0.3);
    // entities with a value: any value for categories and objects; a number asks for things with exactly that measure
    if ((categorical || p.role === "number") && p.role !== "name" && p.role !== "id") {
      for (const val of frequentValues(env, seed, 1)) {
        const V = qb.term(val.term);
        out.push(make("with-value", { kind: "with-value", p: p.name, value: val.mention, names, ...tgt }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${V} . ${nameTriple}}`, { mentions: [val.mention], unfiltered: scope.count, keyed }));
        out.push(make("class-count", { kind: "count-with-value", p: p.name, value: val.mention, ...tgt }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${V} }`, { mentions: [val.mention], unfiltered: scope.count, runLimit: false, keyed }));
        // another attribute of the things with that value ("the phone of the offices in Lyon")
        if (cls) {
          for (const q of seeds.map((sd) => sd.predicate).filter((o) => o.iri !== p.iri && !keys.has(o.iri) && o.role !== "object" && o.role !== "other" && o.iri !== (nameVar ? nameBy?.iri : undefined)).slice(0, 2)) {
            const w = varName(q.name, new Set(t), "value");
            out.push(make("with-value", { kind: "attribute-with-value", p: p.name, q: q.name, value: val.mention }, `SELECT ${w} WHERE { ${typed}${x} ${P} ${V} ; ${qb.iri(q.iri)} ${w} }`, { mentions: [val.mention], unfiltered: scope.count, keyed }));
          }
        }
      }
    }
    // any column with a repeated value in the sample (execute.ts drops answers of one instance per group); a name or
    // date that repeats groups its rows like a category does ("the companies that made more than one phone")
    const groupable = categorical || p.role === "number" || p.role === "name" || p.role === "date";
    if (groupable && p.role !== "id") {
      if (seed.distinctShare < 1) {
        const g = v;
        out.push(make("count-per-group", { kind: "count-per-group", p: p.name, ...tgt }, `SELECT ${g} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${g} } GROUP BY ${g}`));
        out.push(make("count-per-group", { kind: "group-most", p: p.name, ...tgt }, `SELECT ${g} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${g} } GROUP BY ${g} ORDER BY DESC(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
        out.push(make("count-per-group", { kind: "group-most", p: p.name, dir: "low", ...tgt }, `SELECT ${g} (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${g} } GROUP BY ${g} ORDER BY ASC(?count) LIMIT 1`, { tie: { v: "count", k: 1 } }));
        out.push(make("count-per-group", { kind: "group-having", p: p.name, n: "1", ...tgt }, `SELECT ${g} WHERE { ${typed}${x} ${P} ${g} } GROUP BY ${g} HAVING (COUNT(DISTINCT ${x}) > 1)`));
        out.push(make("count-per-group", { kind: "group-having", p: p.name, n: "2", dir: "low", ...tgt }, `SELECT ${g} WHERE { ${typed}${x} ${P} ${g} } GROUP BY ${g} HAVING (COUNT(DISTINCT ${x}) >= 2)`));
      }
    }
    // yes/no: a fact the seed holds
    const fact = scope.rows ? undefined : namedSubjects(env, seed, 1, { facts, turn: turn + 1 })[0];
    const factValue = fact && valueMention(env, fact.o);
    // "is the code of comet k01 K01?" asks nothing
    if (fact && factValue && p.role !== "id" && !repeats(fact.mention, factValue)) {
      out.push(make("yes-no", { kind: "yes-no", p: p.name, entity: fact.mention, value: factValue, truth: true, ...tgt }, `ASK { ${qb.iri(fact.s)} ${P} ${qb.term(fact.o)} }`, { mentions: [fact.mention, factValue], runLimit: false }));
    }

    if (p.role === "number") out.push(...numberCandidates(seed, env, { make, x, v, typed, P, answer, nameTriple, names, scope, categories }));
    if (p.role === "date") out.push(...dateCandidates(seed, env, { make, x, v, typed, P, answer, nameTriple, names, scope }));
    if (p.role === "object") out.push(...joinCandidates(seed, env, { make, x, typed, P, answer, nameTriple, names, scope }), ...joinAttributeCandidates(scope, seed, seeds, env, make));
    if (out.length) groups.push(out);
  }
  const pairs = attributeCandidates(scope, seeds, env, make);
  if (pairs.length) groups.push(pairs);
  groups.push(linkCandidates(scope, seeds, env, make));
  groups.push(setCandidates(scope, seeds, env, make));
  groups.push(groupCandidates(scope, seeds, env, make));
  groups.push(pairCandidates(scope, seeds, env, make));
  groups.push(valueCandidates(scope, seeds, env, make));
  groups.push(linkCompareCandidates(scope, seeds, env, make));
  return groups;
}

interface Parts {
  make: Make;
  x: string;
  v: string;
  typed: string;
  P: string;
  answer: string;
  nameTriple: string;
  names: boolean;
  scope: SeedScope;
  categories?: ProfilePredicate[];
}

function numberCandidates(seed: Seed, env: GeneratorEnv, c: Parts): Candidate[] {
  const { make, x, v, typed, P, answer, nameTriple, names, scope } = c;
  const p = seed.predicate;
  const out: Candidate[] = [];
  const mid = threshold(numbersOf(seed), "high", scope.count);
  if (mid !== undefined) {
    const n = env.qb.number(mid);
    out.push(make("numeric-filter", { kind: "numeric-filter", p: p.name, n, dir: "high", names }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}FILTER(${v} > ${n}) }`, { mentions: [n], unfiltered: scope.count }));
    out.push(make("numeric-filter", { kind: "count-filter", p: p.name, n, dir: "high" }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${v} FILTER(${v} > ${n}) }`, { mentions: [n], unfiltered: scope.count, runLimit: false }));
  }
  out.push(make("superlative", { kind: "superlative", p: p.name, dir: "high", names }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}} ORDER BY DESC(${v}) LIMIT 1`, { tie: { v: v.slice(1), k: 1 } }));
  out.push(make("superlative", { kind: "superlative", p: p.name, dir: "low", names }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}} ORDER BY ASC(${v}) LIMIT 1`, { tie: { v: v.slice(1), k: 1 } }));
  for (const agg of ["avg", "max", "min", "sum"] as const) {
    out.push(make("aggregate", { kind: "aggregate", p: p.name, agg }, `SELECT (${agg.toUpperCase()}(${v}) AS ?${agg}) WHERE { ${typed}${x} ${P} ${v} }`, { runLimit: false }));
  }
  // a figure per group ("the average salary per department")
  for (const group of (c.categories ?? []).filter((g) => g.iri !== p.iri).slice(0, 2)) {
    const g = varName(group.name, new Set([x.slice(1), v.slice(1)]), "group");
    for (const agg of ["avg", "sum"] as const) {
      out.push(make("aggregate", { kind: "aggregate-per-group", p: p.name, q: group.name, agg }, `SELECT ${g} (${agg.toUpperCase()}(${v}) AS ?${agg}) WHERE { ${typed}${x} ${env.qb.iri(group.iri)} ${g} ; ${P} ${v} } GROUP BY ${g}`, { unfiltered: scope.count }));
    }
  }
  // above the class's own average
  const y = varName(`${scope.name || "other"} other`, new Set([x.slice(1), v.slice(1)]), "y");
  const w = varName(`${p.name} other`, new Set([x.slice(1), v.slice(1), y.slice(1)]), "w");
  const average = `{ SELECT (AVG(${w}) AS ?avg) WHERE { ${env.qb.typed(y, scope.cls)}${y} ${P} ${w} } }`;
  for (const dir of ["high", "low"] as const) {
    out.push(make("numeric-filter", { kind: "above-average", p: p.name, names, dir }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}${average} FILTER(${v} ${dir === "high" ? ">" : "<"} ?avg) }`, { unfiltered: scope.count }));
  }
  // several figures at once ("the average, highest and lowest …")
  out.push(make("aggregate", { kind: "aggregates", p: p.name, aggs: ["avg", "max", "min"] }, `SELECT (AVG(${v}) AS ?avg) (MAX(${v}) AS ?max) (MIN(${v}) AS ?min) WHERE { ${typed}${x} ${P} ${v} }`, { runLimit: false }));
  out.push(make("aggregate", { kind: "aggregates", p: p.name, aggs: ["max", "min"] }, `SELECT (MAX(${v}) AS ?max) (MIN(${v}) AS ?min) WHERE { ${typed}${x} ${P} ${v} }`, { runLimit: false }));
  // the average beside one other figure ("the average and highest …", "the total and average …")
  for (const other of ["max", "sum", "min"] as const) {
    out.push(make("aggregate", { kind: "aggregates", p: p.name, aggs: ["avg", other] }, `SELECT (AVG(${v}) AS ?avg) (${other.toUpperCase()}(${v}) AS ?${other}) WHERE { ${typed}${x} ${P} ${v} }`, { runLimit: false }));
  }
  out.push(make("order", { kind: "top-k", p: p.name, n: "5", dir: "high", names }, `SELECT ${answer} ${v} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}} ORDER BY DESC(${v}) LIMIT 5`, { tie: { v: v.slice(1), k: 5 } }));
  // two entities with different values
  const named = namedSubjects(env, seed, 8).filter((e) => Number.isFinite(Number(e.o.value)));
  const a = named[0];
  const b = named.find((e) => e.s !== a?.s && Number(e.o.value) !== Number(a?.o.value) && e.mention !== a?.mention);
  if (a && b && !scope.rows) {
    out.push(
      make("compare", { kind: "compare", p: p.name, entity: a.mention, entity2: b.mention, dir: "high" }, `SELECT ${x} WHERE { VALUES ${x} { ${env.qb.iri(a.s)} ${env.qb.iri(b.s)} } ${x} ${P} ${v} } ORDER BY DESC(${v}) LIMIT 1`, {
        mentions: [a.mention, b.mention],
        runLimit: false,
      }),
    );
  }
  return out;
}

function dateCandidates(seed: Seed, env: GeneratorEnv, c: Parts): Candidate[] {
  const { make, x, v, typed, P, answer, nameTriple, names, scope } = c;
  const p = seed.predicate;
  const out: Candidate[] = [];
  const dated = seed.pairs.filter((pr) => pr.o.type === "literal" && DATE_DT.test(pr.o.datatype ?? "")).map((pr) => pr.o as Term & { datatype: string });
  const sorted = [...dated].sort((a, b) => a.value.localeCompare(b.value));
  const mid = sorted[Math.floor(sorted.length / 2)];
  if (mid && sorted.length >= 3) {
    const day = mid.value.slice(0, 10);
    const threshold = mid.datatype.endsWith("#date") ? env.qb.date(day, mid.datatype) : env.qb.date(`${day}T00:00:00`, mid.datatype);
    out.push(make("date-filter", { kind: "date-filter", p: p.name, n: day, dir: "high", names }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}FILTER(${v} > ${threshold}) }`, { mentions: [day], unfiltered: scope.count }));
    const year = day.slice(0, 4);
    out.push(make("date-filter", { kind: "count-filter", p: p.name, n: year, dir: "high" }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${v} FILTER(YEAR(${v}) = ${year}) }`, { mentions: [year], unfiltered: scope.count, runLimit: false }));
  }
  out.push(make("superlative", { kind: "superlative", p: p.name, dir: "high", names }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}} ORDER BY DESC(${v}) LIMIT 1`, { tie: { v: v.slice(1), k: 1 } }));
  out.push(make("superlative", { kind: "superlative", p: p.name, dir: "low", names }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${v} . ${nameTriple}} ORDER BY ASC(${v}) LIMIT 1`, { tie: { v: v.slice(1), k: 1 } }));
  return out;
}

/** Two hops through an object property, along the second predicates its values have (readJoinSeeds). */
function joinCandidates(seed: Seed, env: GeneratorEnv, c: Omit<Parts, "v">): Candidate[] {
  const { make, x, typed, P, answer, nameTriple, names, scope } = c;
  const { qb } = env;
  const p = seed.predicate;
  const out: Candidate[] = [];
  const targetName = seed.targetClass ? env.lexicon.displayName(seed.targetClass) : undefined;
  const tgt = targetName ? { target: targetName } : {};
  for (const join of env.joins.get(p.iri + " " + (scope.cls ?? "")) ?? []) {
    const t = new Set<string>([x.slice(1)]);
    const y = varName(seed.targetClass ? (env.lexicon.displayName(seed.targetClass) ?? "item") : p.name, t, "y");
    const w = varName(join.q.name, t, "value");
    // table-style KGs type every row variable; elsewhere the middle of a path usually goes untyped
    const typedY = scope.rows ? qb.typed(y, seed.targetClass) : "";
    const Q = qb.iri(join.q.iri);
    // a start spread over the sampled rows (sorted, one per second predicate), not always the first stored
    const starts = join.rows.map((r) => ({ r, mention: mentionOf(env.lexicon, r.s) })).filter((r) => r.mention).sort((a, b) => (a.r.s < b.r.s ? -1 : a.r.s > b.r.s ? 1 : 0));
    const start = starts.length ? starts[spreadIndex(join.q.iri + p.iri, starts.length)] : undefined;
    // "the name of the thing X points to" is the thing itself: a chain ends in an attribute, not a name
    if (start?.mention && !scope.rows && join.q.role !== "name") {
      out.push(make("two-hop", { kind: "chain", p: p.name, q: join.q.name, entity: start.mention, ...tgt }, `SELECT ${w} WHERE { ${qb.iri(start.r.s)} ${P} ${y} . ${typedY}${y} ${Q} ${w} }`, { mentions: [start.mention] }));
    }
    const keyed = scope.projectNames && scope.nameBy ? join.rows.map((r) => ({ r, key: keyOf(env, r.s, scope.nameBy?.iri ?? "") })).find((r) => r.key) : undefined;
    if (keyed?.key && scope.nameBy) {
      const K = qb.term({ type: "literal", value: keyed.key.text, ...(keyed.key.lang ? { "xml:lang": keyed.key.lang } : {}) });
      out.push(
        make("two-hop", { kind: "chain-by-key", p: p.name, q: join.q.name, key: scope.nameBy.name, value: keyed.key.text }, `SELECT ${w} WHERE { ${typed}${x} ${qb.iri(scope.nameBy.iri)} ${K} ; ${P} ${y} . ${typedY}${y} ${Q} ${w} }`, {
          mentions: [keyed.key.text],
        }),
      );
    }
    if (join.q.role === "number" || join.q.role === "date") continue;
    const target = join.rows.map((r) => ({ r, mention: valueMention(env, r.o) })).find((r) => r.mention);
    if (target?.mention) {
      const V = qb.term(target.r.o);
      out.push(make("two-hop", { kind: "join-filter", p: p.name, q: join.q.name, value: target.mention, names, ...tgt }, `SELECT ${answer} WHERE { ${typed}${x} ${P} ${y} . ${typedY}${y} ${Q} ${V} . ${nameTriple}}`, { mentions: [target.mention], unfiltered: scope.count }));
      out.push(make("two-hop", { kind: "join-count", p: p.name, q: join.q.name, value: target.mention, ...tgt }, `SELECT (COUNT(DISTINCT ${x}) AS ?count) WHERE { ${typed}${x} ${P} ${y} . ${typedY}${y} ${Q} ${V} }`, { mentions: [target.mention], unfiltered: scope.count, runLimit: false }));
    }
  }
  return out;
}
