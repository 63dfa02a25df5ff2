// The examples phase: read the seeds (bounded samples per class and predicate, and two-hop rows), build candidates
// with every generator, interleave them so each class and shape gets its turn, and execute them — deduplicated by
// template before they run — until enough are kept, the candidate budget is spent or the job's time is up.
import { AppError, toAppError } from "@/lib/errors";
import { NS } from "@/lib/kg/profile";
import type { Lexicon } from "@/lib/kg/lexicon";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import type { OnboardingContext } from "./context";
import { executeCandidate } from "./execute";
import { interleave, type Candidate } from "./frames";
import { scopeCandidates } from "./generators";
import { EITHER_TURNS } from "./generators-either";
import { WIDER_PREDICATES, widerScopeCandidates } from "./generators-wider";
import { TURN_ORDER } from "./generators-link-compare";
import { QueryBuilder } from "./query-builder";
import { keyColumns, readJoinSeeds, readSeed, seedScopes, type JoinSeed, type Seed, type SeedScope } from "./seeds";
import { impliedTypes, queryTemplate } from "./template";
import { templateQuestion } from "./verbalize";
import type { KgOnboardingProfile, OnboardingLimits, ProfileClass, ProfilePredicate } from "./types";

export interface KeptExample {
  candidate: Candidate;
  template: string;
  answerSize: number;
  preview: string[];
}

export interface ExamplesOutcome {
  kept: KeptExample[];
  /** candidates executed */
  ran: number;
  /** rejections by reason (for the job's summary and the tests) */
  rejected: Map<string, number>;
  skipped: string[];
  /** every candidate of both passes ran and fewer than the cap were kept: no shape the generators make is left out */
  exhausted: boolean;
}

const PREDICATES_PER_SCOPE = 12;
/** errors after which no further query can succeed */
export const FATAL = new Set(["kg_unreachable", "kg_unavailable", "aborted"]);
/** Kinds of question in the order each round of a class takes them (what people ask most about a class first). */
const KIND_ORDER = ["count", "list-attribute", "value-of-by-key", "value-of", "count-with-value", "with-value", "attribute-with-value", "count-per-group", "group-most", "superlative", "join-count", "join-filter", "chain", "chain-by-key", "join-count-per-group", "join-list-two", "aggregate", "count-distinct", "list-two", "list-ordered", "list-sorted-by", "numeric-filter", "attribute-not-value", "aggregate-with-value", "count-between", "numeric-between", "contains", "count-filter", "aggregates", "aggregate-per-group", "above-average", "count-with-attribute", "date-filter", "group-having", "join-group-most", "join-group-having", "top-k", "list", "list-names", "compare", "yes-no", "link-none-key", "link-none", "link-none-value", "link-both", "link-filter", "link-list-two", "link-aggregate", "set-both", "set-both-range", "set-none", "set-none-range", "key-count-per-group", "key-group-most", "key-group-having", "key-count-distinct", "pairs", "join-pair-most", "count-aggregate-per-group", "pair-not-value", "join-compare", "shared-value"];
/** Kinds that share one turn a round (one queue, in the order their generator writes them): two columns of a class's rows. */
const TURN: Record<string, string> = { "pair-top": "pairs", "pair-sorted": "pairs", "pair-list": "pairs", "pair-with-value": "pairs", ...Object.fromEntries(TURN_ORDER.map((k) => [k, "join-compare"])), ...EITHER_TURNS };
const turnOf = (kind: string) => TURN[kind] ?? kind;
/**
 * The plain reads of a table's columns — list one, sort by one, its top row, its aggregates, counts per its values, how
 * many different, the rows with a value and how many, a row's value by its key. On a table every column is something
 * people ask about, and these are what they ask first of each: they get two turns a round, so under the cap they reach
 * more columns before the rarer shapes reach their seconds. Tables only: on graph-shaped KGs the doubled reads crowded
 * out the joins their questions need.
 */
export const COLUMN_READS: ReadonlySet<string> = new Set(["list-attribute", "list-ordered", "list-sorted-by", "superlative", "aggregate", "aggregates", "count-per-group", "group-most", "count-distinct", "with-value", "count-with-value", "value-of-by-key", "attribute-with-value"]);

/** A queue split into `n` queues taking its items in turn (so it gets `n` turns in each round of `fairOrder`). */
export function splitTurns<T>(queue: T[], n: number): T[][] {
  if (n <= 1) return [queue];
  return Array.from({ length: n }, (_, j) => queue.filter((_, i) => i % n === j)).filter((q) => q.length > 0);
}
/**
 * A table whose rows point to two or more other tables and that no table points to records their relationships
 * (memberships, bookings, results): people ask about the things it links and reach it through its links, so its own
 * column reads take a turn every other round of `fairOrder` (kinds asked across its links keep theirs).
 */
export function isRelationTable(c: ProfileClass | undefined): boolean {
  return !!c && c.incoming.length === 0 && c.predicates.filter((p) => p.role === "object").length >= 2;
}

/** Kinds asked across a table's links: on a table of relationships they keep their pace, they are how it is asked. */
const ACROSS = /^(join-|chain|link-|key-)/;
/** A queue that takes a turn every `n`-th round of `fairOrder` (the gaps are skipped). */
export function everyNth<T>(queue: T[], n: number): (T | undefined)[] {
  return n <= 1 ? queue : queue.flatMap((c, i) => (i === 0 ? [c] : [...Array<undefined>(n - 1).fill(undefined), c]));
}
const rank = (kind: string) => (KIND_ORDER.indexOf(kind) + 1 || KIND_ORDER.length + 1);
const CONCURRENCY = 4;

/**
 * The order candidates run in, given each class's queues by kind: every (class, kind) pair's first candidate before any
 * pair's second, and so on — within a round the classes take turns, each in its kind order. A class with few kinds
 * does not start its seconds while another class's late kinds have had none, so the example cap spreads over kinds.
 */
export function fairOrder<T>(classes: (T | undefined)[][][]): T[] {
  const out: T[] = [];
  const depth = Math.max(0, ...classes.flatMap((kinds) => kinds.map((q) => q.length)));
  for (let round = 0; round < depth; round++) out.push(...interleave(classes.map((kinds) => kinds.filter((q) => q.length > round).map((q) => q[round]).filter((c): c is T => c !== undefined))));
  return out;
}

/**
 * A table's columns in the order questions use them: the most covered first (in steps of a tenth), then by what people
 * ask about — names, then texts and links, measures, dates, ids, and key columns last. The generators that pair
 * columns take the first few, so the order decides which pairs exist.
 */
export function salienceOrder(seeds: Seed[]): Seed[] {
  const keys = keyColumns(seeds);
  const rank = (s: Seed) => (keys.has(s.predicate.iri) ? 6 : { name: 0, text: 1, object: 1, boolean: 2, number: 2, date: 3, id: 5, other: 7 }[s.predicate.role]);
  return seeds
    .map((s, i) => ({ s, i }))
    .sort((a, b) => Math.round(b.s.predicate.coverage * 10) - Math.round(a.s.predicate.coverage * 10) || rank(a.s) - rank(b.s) || a.i - b.i)
    .map((x) => x.s);
}

export interface ExamplesProgress {
  (done: number, total: number, message: string): void;
}

export async function generateExamples(
  octx: OnboardingContext,
  profile: KgOnboardingProfile,
  lexicon: Lexicon,
  limits: OnboardingLimits,
  options: { deadline: number; now: () => number; report: ExamplesProgress; typePredicate?: string },
): Promise<ExamplesOutcome> {
  const typePredicate = options.typePredicate ?? octx.ctx.kg.profile.typePredicates[0] ?? `${NS.rdf}type`;
  const skipped: string[] = [];
  const scopes = seedScopes(profile, PREDICATES_PER_SCOPE).slice(0, limits.classes + 1);
  const tasks = scopes.flatMap((scope) => scope.predicates.map((predicate) => ({ scope, predicate })));
  let seedsDone = 0;
  const timeUp = () => options.now() > options.deadline;
  const failures: AppError[] = [];
  const seeds = await mapBounded(tasks, CONCURRENCY, async ({ scope, predicate }) => {
    if (timeUp()) return undefined;
    const seed = await readSeed(octx, scope, predicate, typePredicate).catch((e: unknown) => {
      const err = toAppError(e);
      // the KG is gone (or the job was cancelled): nothing more can be read
      if (octx.ctx.signal?.aborted || FATAL.has(err.code)) throw err;
      failures.push(err);
      return undefined;
    });
    options.report(++seedsDone, tasks.length, "reading sample values");
    return seed;
  });
  if (timeUp()) skipped.push("time ran out while reading sample values: some classes and predicates have no examples");
  // every sample failed (each query timed out, say): the KG cannot be read, which is what the job must say
  if (tasks.length > 0 && failures.length === tasks.length) throw failures[failures.length - 1];
  if (failures.length) skipped.push(`${failures.length} of ${tasks.length} sample queries failed (last: ${failures[failures.length - 1].message})`);
  // each scope's seeds; a table's columns are all covered alike: ordered by what people ask of them (elsewhere coverage
  // orders them)
  const seedsOf = new Map(
    scopes.map((scope) => {
      const mine = seeds.filter((s, i): s is Seed => !!s && tasks[i].scope === scope);
      return [scope, scope.rows ? salienceOrder(mine) : mine] as const;
    }),
  );
  const known = new Map<string, ProfilePredicate>();
  for (const p of [...profile.classes.flatMap((c) => c.predicates), ...(profile.untyped?.predicates ?? [])]) if (!known.has(p.iri)) known.set(p.iri, p);
  const joins = new Map<string, JoinSeed[]>();
  const objectSeeds = seeds.filter((s): s is Seed => !!s && s.predicate.role === "object");
  // key columns of every class: a path across a table's link asks along them last
  const keys = new Set(scopes.flatMap((scope) => [...keyColumns(seedsOf.get(scope) ?? [])]));
  const tables = new Set(scopes.flatMap((scope) => (scope.rows && scope.cls ? [scope.cls] : [])));
  await mapBounded(objectSeeds, CONCURRENCY, async (seed) => {
    if (timeUp()) return;
    const found = await readJoinSeeds(octx, seed, known, typePredicate, tables.has(seed.cls ?? "") ? { keys } : undefined).catch((e: unknown) => {
      if (octx.ctx.signal?.aborted) throw e;
      return [] as JoinSeed[];
    });
    joins.set(`${seed.predicate.iri} ${seed.cls ?? ""}`, found);
  });

  const qb = new QueryBuilder(profile.prefixes, typePredicate);
  const classes = new Map(scopes.flatMap((scope) => (scope.cls ? [[scope.cls, { scope, seeds: seedsOf.get(scope) ?? [] }] as const] : [])));
  const env = { qb, lexicon, maxRows: limits.maxAnswerRows, joins, classes };
  // within a class, one of each kind of question in turn (a list, a count, a value, a filter, …), predicates in order
  const queuesOf = (scope: (typeof scopes)[number], candidates: Candidate[]) => {
    const byKind = new Map<string, Candidate[]>();
    for (const c of candidates) {
      const k = turnOf(c.frame.kind);
      const queue = byKind.get(k);
      if (queue) queue.push(c);
      else byKind.set(k, [c]);
    }
    // a table's plain column reads take two turns a round (see COLUMN_READS)
    const turns = (k: string) => (scope.rows && COLUMN_READS.has(k) ? 2 : 1);
    // a table of relationships reads its own columns every other round (see isRelationTable)
    const every = scope.rows && isRelationTable(profile.classes.find((c) => c.iri === scope.cls)) ? 2 : 1;
    // a value's "either of two" sibling waits until the class's single values have had their turns (EITHER_TURNS)
    for (const [k, q] of byKind) if (Object.values(EITHER_TURNS).includes(k)) byKind.set(k, [...q.filter((c) => c.frame.kind === k), ...q.filter((c) => c.frame.kind !== k)]);
    return [...byKind.entries()].sort((a, b) => rank(a[0]) - rank(b[0])).flatMap(([k, q]) => splitTurns(everyNth(q, ACROSS.test(k) ? 1 : every), turns(k)));
  };
  const perScope = scopes.map((scope) => queuesOf(scope, scopeCandidates(scope, seedsOf.get(scope) ?? [], env).flat()));

  const kept: KeptExample[] = [];
  const rejected = new Map<string, number>();
  const templates = new Set<string>();
  const implied = impliedTypes(profile);
  const reject = (reason: string) => rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
  let ran = 0;
  /** Runs candidates in order until enough are kept, the budget is spent or time is up; how many it did not reach. */
  const run = async (ordered: Candidate[]): Promise<number> => {
    let next = 0;
    while (next < ordered.length && kept.length < limits.maxExamples && ran < limits.maxCandidates && !timeUp()) {
      const batch: { c: Candidate; template: string }[] = [];
      while (batch.length < CONCURRENCY * 2 && next < ordered.length) {
        const c = ordered[next++];
        // no template reads naturally for it (a relation where the question needs a noun): not asked at all
        if (templateQuestion(c.frame) === undefined) {
          reject("no natural question");
          continue;
        }
        const template = queryTemplate(c.sparql, { typePredicates: [typePredicate], impliedTypes: implied });
        if (!template) {
          reject("did not parse");
          continue;
        }
        if (templates.has(template)) {
          reject("same structure as an example already kept or tried");
          continue;
        }
        templates.add(template);
        batch.push({ c, template });
      }
      const verdicts = await mapBounded(batch, CONCURRENCY, (b) => executeCandidate(octx, b.c, limits.maxAnswerRows, lexicon));
      ran += batch.length;
      batch.forEach((b, i) => {
        const v = verdicts[i];
        if (v.keep) {
          if (kept.length < limits.maxExamples) kept.push({ candidate: b.c, template: b.template, answerSize: v.answerSize, preview: v.preview });
        } else reject(v.reason);
      });
      options.report(kept.length, limits.maxExamples, `${ran} candidate queries run, ${kept.length} kept`);
    }
    return ordered.length - next;
  };
  const notRun = (left: number, what: string) => {
    if (timeUp()) skipped.push(`time ran out: ${left} ${what} were not run`);
    else if (ran >= limits.maxCandidates) skipped.push(`candidate budget of ${limits.maxCandidates} queries reached: ${left} not run`);
  };
  const left = await run(fairOrder(perScope));
  let exhausted = false;
  if (left > 0) notRun(left, "candidate queries");
  // every shape ran and the pool still has room (a small KG): a wider pass over more columns and values (see widerPass)
  else if (kept.length < limits.maxExamples && ran < limits.maxCandidates && !timeUp()) {
    // the predicates past the first pass's PREDICATES_PER_SCOPE (same scopes, same order), read now
    const wide = seedScopes(profile, WIDER_PREDICATES).slice(0, scopes.length);
    const more: Seed[][] = [];
    for (const [i, scope] of scopes.entries()) {
      const extra = wide[i]?.cls === scope.cls ? wide[i].predicates.slice(scope.predicates.length) : [];
      const read = await mapBounded(extra, CONCURRENCY, async (p) => {
        if (timeUp()) return undefined;
        return readSeed(octx, scope, p, typePredicate).catch((e: unknown) => {
          if (octx.ctx.signal?.aborted || FATAL.has(toAppError(e).code)) throw e;
          return undefined;
        });
      });
      more.push(read.filter((s): s is Seed => !!s));
    }
    const order = (scope: SeedScope) => (all: Seed[]) => (scope.rows ? salienceOrder(all) : all);
    const wider = await run(fairOrder(scopes.map((scope, i) => queuesOf(scope, widerScopeCandidates(scope, seedsOf.get(scope) ?? [], more[i] ?? [], env, order(scope))))));
    if (wider > 0) notRun(wider, "wider candidate queries");
    else exhausted = kept.length < limits.maxExamples && !timeUp() && ran < limits.maxCandidates;
  }
  return { kept, ran, rejected, skipped, exhausted };
}
