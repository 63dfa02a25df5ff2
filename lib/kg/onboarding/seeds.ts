// The values the generators build from: per class (or for resources without a class) and predicate, a bounded
// sample of (subject, value) pairs — which entities have the predicate, what values it takes, how many distinct —
// read with one LIMITed query each.
import { iri, isSafeIri } from "@/lib/kg/escape";
import { isOpaqueIri, type Lexicon } from "@/lib/kg/lexicon";
import { NS } from "@/lib/kg/profile";
import type { Term } from "@/lib/kg/types";
import { localNameWords } from "@/lib/pipeline/common/labels";
import { selectRows, type OnboardingContext } from "./context";
import type { KgOnboardingProfile, ProfilePredicate } from "./types";

export const SEED_ROWS = 60;

export interface Seed {
  /** undefined: resources without a class */
  cls?: string;
  /** class count (instances), or the sampled untyped subjects */
  count: number;
  predicate: ProfilePredicate;
  pairs: { s: string; o: Term }[];
  /** distinct values / pairs in the sample (low: a category to group by) */
  distinctShare: number;
  /** the object values' classes (object predicates: the class of most values) */
  targetClass?: string;
}

export interface SeedScope {
  cls?: string;
  name: string;
  count: number;
  predicates: ProfilePredicate[];
  /** the class's naming predicate (a name/label/id role predicate it has) */
  nameBy?: ProfilePredicate;
  /** table-style KG (key=value row ids): rows are asked about by column values (not by IRI) and joins are typed */
  rows?: boolean;
  /** rows with a naming column: answers project it */
  projectNames?: boolean;
}

/** A second hop from an object predicate's values: (subject, middle, value) triples along p then q. */
export interface JoinSeed {
  q: ProfilePredicate;
  rows: { s: string; y: string; o: Term }[];
}

/** Rows of a table mapped to RDF (key=value ids): people ask about them by column values, as in SQL. */
const ROW_SHAPE = /\{key=value\}$/;

/** Classes (largest first) and the resources without a class, each with the predicates worth generating from. */
export function seedScopes(profile: KgOnboardingProfile, predicatesPerScope: number): SeedScope[] {
  const useful = (p: ProfilePredicate) => p.role !== "other" && !p.iri.startsWith(NS.owl) && !p.iri.startsWith(NS.rdfs) && p.iri !== `${NS.rdf}type`;
  const pick = (ps: ProfilePredicate[]) => ps.filter(useful).slice(0, predicatesPerScope);
  const scopes: SeedScope[] = profile.classes
    .filter((c) => c.count > 0 && !c.iri.startsWith(NS.owl) && !c.iri.startsWith(NS.rdfs))
    .map((c) => {
      const nameBy = c.predicates.find((p) => p.role === "name") ?? c.predicates.find((p) => p.role === "id");
      const rows = ROW_SHAPE.test(c.idShape ?? "") || c.blankNodes === true;
      return { cls: c.iri, name: c.name, count: c.count, predicates: pick(c.predicates), ...(rows ? { rows } : {}), ...(nameBy ? { nameBy, projectNames: rows } : {}) };
    });
  if (profile.untyped) scopes.push({ name: "", count: profile.untyped.count, predicates: pick(profile.untyped.predicates), nameBy: profile.untyped.predicates.find((p) => p.role === "name") });
  return scopes;
}

/** One bounded sample per scope and predicate. */
export async function readSeed(octx: OnboardingContext, scope: SeedScope, predicate: ProfilePredicate, typePredicate: string): Promise<Seed | undefined> {
  if (!isSafeIri(predicate.iri) || (scope.cls && !isSafeIri(scope.cls))) return undefined;
  const typed = scope.cls ? `?s ${iri(typePredicate)} ${iri(scope.cls)} . ` : "";
  const rows = await selectRows(octx.ctx, "onboarding: values of a predicate", `SELECT ?s ?o WHERE { ${typed}?s ${iri(predicate.iri)} ?o . FILTER(!isLiteral(?s)) } LIMIT ${SEED_ROWS}`);
  // blank-node rows (and links to them) count as values; no question or query ever writes them (mentionOf)
  const pairs = rows.flatMap((b) => (b.s && b.s.type !== "literal" && b.o && (b.o.type !== "bnode" || predicate.role === "object") ? [{ s: nodeKey(b.s), o: b.o.type === "bnode" ? { type: "bnode" as const, value: nodeKey(b.o) } : b.o }] : []));
  if (pairs.length === 0) return undefined;
  const distinct = new Set(pairs.map((p) => p.o.value)).size;
  const target = predicate.valueTypes.find((t) => t.kind === "class")?.iri;
  return { ...(scope.cls ? { cls: scope.cls } : {}), count: scope.count, predicate, pairs, distinctShare: distinct / pairs.length, ...(target ? { targetClass: target } : {}) };
}

/** A literal short enough to quote in a question (a value to filter by, a group to name). */
export const shortLiteral = (t: Term) => t.type === "literal" && t.value.trim() !== "" && t.value.length <= 60;
/** A predicate whose values are literals a question asks for (not links, not unreadable ones). */
export const literalSeed = (s: Seed) => s.predicate.role !== "object" && s.predicate.role !== "other";

/**
 * A threshold for "above n" / "below n" over a sample of a column's values: one that some sampled rows pass and some do
 * not (a median tied at the top or the bottom keeps none), and on a table of `rows` rows about `target` of
 * them (so the answer stays small on large tables; half of them on small ones).
 */
export function threshold(values: number[], dir: "high" | "low", rows: number, target = 20): number | undefined {
  if (values.length < 3) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const share = Math.min(0.5, target / Math.max(1, rows));
  const i = dir === "high" ? Math.floor((1 - share) * (sorted.length - 1)) : Math.ceil(share * (sorted.length - 1));
  let n = sorted[i];
  // ties at the end: the nearest value that leaves some rows past it
  if (dir === "high" && n >= sorted[sorted.length - 1]) n = [...sorted].reverse().find((x) => x < sorted[sorted.length - 1]) ?? n;
  if (dir === "low" && n <= sorted[0]) n = sorted.find((x) => x > sorted[0]) ?? n;
  return n;
}

/** A subject's key: its IRI, or `_:label` for a blank node (never written into a query). */
export const nodeKey = (t: Term) => (t.type === "bnode" ? `_:${t.value}` : t.value);
export const isBlankKey = (s: string) => s.startsWith("_:");

/** The key value a table row's IRI carries (`…/customer_id=10` → "10"), if any. */
export function rowKeyOf(value: string): string | undefined {
  return /[^=;/#]+=([^=;/#]+)$/.exec(value)?.[1];
}

/**
 * The columns that hold row keys: the value is the key the subject's own IRI carries (its primary key) or the key of
 * a row it links to (a foreign key beside the link). People filter by them ("the vehicle with id 1") but do not sum,
 * rank or sort them, so the generators ask only lookups of them.
 */
export function keyColumns(seeds: Seed[]): Set<string> {
  const links = new Map<string, string[]>();
  for (const sd of seeds) if (sd.predicate.role === "object") for (const pr of sd.pairs) if (pr.o.type === "uri") links.set(pr.s, [...(links.get(pr.s) ?? []), pr.o.value]);
  const out = new Set<string>();
  for (const sd of seeds) {
    if (sd.predicate.role === "object" || sd.pairs.length < 3) continue;
    const hits = sd.pairs.filter((pr) => pr.o.type === "literal" && [pr.s, ...(links.get(pr.s) ?? [])].some((i) => rowKeyOf(i) === pr.o.value)).length;
    if (hits >= 0.8 * sd.pairs.length) out.add(sd.predicate.iri);
  }
  return out;
}

/** The name a question writes for an IRI: the lexicon's display name, else its local name in words. */
export function nameFor(lexicon: Lexicon, value: string): string | undefined {
  const n = lexicon.displayName(value);
  if (n) return n;
  if (isOpaqueIri(value)) return undefined;
  const words = localNameWords(value);
  return /\p{L}{2}/u.test(words) ? words : undefined;
}

const JOIN_OBJECTS = 20;
const JOIN_PREDICATES = 3;

/** For an object predicate's seed: the predicates its values have, and a few two-hop rows along each. */
/** Which second predicates a two-hop path asks along first (lower first). */
export function hopPreference(p: ProfilePredicate, keys: ReadonlySet<string> = new Set()): number {
  if (keys.has(p.iri)) return 5;
  return { name: 0, text: 1, boolean: 2, date: 2, object: 2, number: 3, id: 4, other: 6 }[p.role];
}

export async function readJoinSeeds(octx: OnboardingContext, seed: Seed, known: Map<string, ProfilePredicate>, typePredicate: string, rows?: { keys: ReadonlySet<string> }): Promise<JoinSeed[]> {
  const objects = [...new Set(seed.pairs.flatMap((p) => (p.o.type === "uri" && isSafeIri(p.o.value) ? [p.o.value] : [])))].slice(0, JOIN_OBJECTS);
  const blanks = seed.pairs.some((p) => p.o.type === "bnode");
  if (objects.length === 0 && !blanks) return [];
  // blank nodes cannot be listed: the values come from a bounded subquery instead
  const typed = seed.cls && isSafeIri(seed.cls) ? `?s0 ${iri(typePredicate)} ${iri(seed.cls)} . ` : "";
  const values = objects.length ? `VALUES ?y { ${objects.map(iri).join(" ")} }` : `{ SELECT DISTINCT ?y WHERE { ${typed}?s0 ${iri(seed.predicate.iri)} ?y . FILTER(isBlank(?y)) } LIMIT ${JOIN_OBJECTS} }`;
  const next = await selectRows(
    octx.ctx,
    "onboarding: predicates one hop further",
    `SELECT ?q (COUNT(*) AS ?n) WHERE { ${values} ?y ?q ?o . FILTER(?q != ${iri(typePredicate)} && !isBlank(?o)) } GROUP BY ?q ORDER BY DESC(?n) LIMIT ${JOIN_PREDICATES * 4}`,
  );
  const out: JoinSeed[] = [];
  // on a table's rows every column is equally frequent: people ask across a link by the linked thing's name or
  // category, then its measures and dates, and by its key columns last (a stable sort keeps the frequency order within
  // a role); elsewhere the most used predicates come first
  const candidates = next
    .flatMap((b) => {
      const q = b.q?.value;
      const info = q ? known.get(q) : undefined;
      return q && info && q !== seed.predicate.iri && isSafeIri(q) && info.role !== "other" ? [{ q, info }] : [];
    })
    .sort((a, b) => (rows ? hopPreference(a.info, rows.keys) - hopPreference(b.info, rows.keys) : 0));
  for (const { q, info } of candidates) {
    if (out.length >= JOIN_PREDICATES) break;
    const rows = await selectRows(
      octx.ctx,
      "onboarding: two-hop values",
      `SELECT ?s ?y ?o WHERE { ${values} ?s ${iri(seed.predicate.iri)} ?y . ?y ${iri(q)} ?o . FILTER(!isLiteral(?s) && !isBlank(?o)) } LIMIT 40`,
    );
    // a hop that leads back to where it started (p then its inverse) asks nothing
    const kept = rows.flatMap((r) => (r.s && r.s.type !== "literal" && r.y && r.y.type !== "literal" && r.o && r.o.value !== r.s.value ? [{ s: nodeKey(r.s), y: nodeKey(r.y), o: r.o }] : []));
    if (kept.length) out.push({ q: info, rows: kept });
  }
  return out;
}
