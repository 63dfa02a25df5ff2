// Examples made for one question, at turn time: the stored pool holds at most a few hundred examples per KG, and on a
// KG with many columns the combinations a person asks about (this column of the rows with that value, counted per
// that link) are a long tail no pool of that size holds. Here the generators run again over the few classes the
// question names — every shape, over all their columns — and the candidates whose template questions read most like
// the question are executed, bounded by a query count and a deadline. Read-only like the job; no gold, no model.
import { toAppError } from "@/lib/errors";
import type { Lexicon } from "@/lib/kg/lexicon";
import { NS } from "@/lib/kg/profile";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import type { OnboardingContext } from "./context";
import { executeCandidate } from "./execute";
import type { Candidate } from "./frames";
import { scopeCandidates } from "./generators";
import { WIDER_PREDICATES, widerCandidates } from "./generators-wider";
import { QueryBuilder } from "./query-builder";
import { keyColumns, readJoinSeeds, readSeed, seedScopes, type JoinSeed, type Seed, type SeedScope } from "./seeds";
import { impliedTypes, queryTemplate } from "./template";
import { templateQuestion } from "./verbalize";
import { FATAL, salienceOrder } from "./examples";
import { DEFAULT_ONBOARDING_LIMITS, type KgOnboardingProfile, type ProfilePredicate } from "./types";

/** A question and its query, as the caller's ranking reads them. */
export interface AimDoc {
  id: string;
  question: string;
  sparql: string;
}

export interface AimOptions {
  /** the docs that read like the asked question, best first (those sharing nothing with it dropped) */
  rank(docs: AimDoc[]): Promise<AimDoc[]>;
  /** templates the pool already holds: not made again */
  have: ReadonlySet<string>;
  /** examples to keep (default 5) */
  examples?: number;
  /** candidate queries to run at most (default 24) */
  candidates?: number;
  /** classes the question names to generate for (default 3) */
  classes?: number;
  /** rows above which an answer is too big (default 50, as the job's) */
  maxAnswerRows?: number;
  /** Date.now() after which nothing more is read or run */
  deadline: number;
  now?: () => number;
}

export interface AimedExample {
  question: string;
  sparql: string;
  template: string;
  shape: Candidate["shape"];
}

export interface AimOutcome {
  examples: AimedExample[];
  /** the classes generated for, by name */
  classes: string[];
  /** candidate queries run */
  ran: number;
  /** why it stopped short, when it did */
  skipped?: string;
}

/** Predicates read per class the question does not name but its classes link to (their names and values). */
const LINKED_PREDICATES = 12;
const CONCURRENCY = 4;

/** The words a class is known by: its name and its predicates' names. */
const scopeText = (s: SeedScope) => `${s.name} ${s.predicates.map((p) => p.name).join(" ")}`;

export async function aimExamples(octx: OnboardingContext, profile: KgOnboardingProfile, lexicon: Lexicon, options: AimOptions): Promise<AimOutcome> {
  const now = options.now ?? (() => Date.now());
  const timeUp = () => now() > options.deadline;
  const typePredicate = octx.ctx.kg.profile.typePredicates[0] ?? `${NS.rdf}type`;
  // resources without a class are one scope too (named by their predicates alone)
  const all = seedScopes(profile, WIDER_PREDICATES);
  const byId = new Map(all.map((s, i) => [`c${i}`, s]));
  const named = await options.rank(all.map((s, i) => ({ id: `c${i}`, question: scopeText(s), sparql: "" })));
  const chosen = named.slice(0, options.classes ?? 3).flatMap((d) => byId.get(d.id) ?? []);
  if (chosen.length === 0) return { examples: [], classes: [], ran: 0 };
  // the classes the chosen ones link to: their names and columns are what a join's question reads
  const linkedIris = new Set(chosen.flatMap((s) => s.predicates.flatMap((p) => p.valueTypes.filter((t) => t.kind === "class" && t.iri).map((t) => t.iri as string))));
  const linked = all.filter((s) => !chosen.includes(s) && linkedIris.has(s.cls ?? "")).map((s) => ({ ...s, predicates: s.predicates.slice(0, LINKED_PREDICATES) }));
  const tasks = [...chosen, ...linked].flatMap((scope) => scope.predicates.map((predicate) => ({ scope, predicate })));
  const read = await mapBounded(tasks, CONCURRENCY, async ({ scope, predicate }) => (timeUp() ? undefined : cachedSeed(octx, scope, predicate, typePredicate).catch(failSoft(octx))));
  // each scope's seeds, a table's in the order people ask of its columns (as the job orders them)
  const seedsOf = new Map([...chosen, ...linked].map((scope) => {
    const mine = read.filter((s, i): s is Seed => !!s && tasks[i].scope === scope);
    return [scope, scope.rows ? salienceOrder(mine) : mine] as const;
  }));
  const classes = new Map([...chosen, ...linked].flatMap((scope) => (scope.cls ? [[scope.cls, { scope, seeds: seedsOf.get(scope) ?? [] }] as const] : [])));
  const known = new Map<string, ProfilePredicate>();
  for (const p of profile.classes.flatMap((c) => c.predicates)) if (!known.has(p.iri)) known.set(p.iri, p);
  const keys = new Set([...classes.values()].flatMap((c) => [...keyColumns(c.seeds)]));
  const tables = new Set([...classes.values()].flatMap((c) => (c.scope.rows ? [c.scope.cls as string] : [])));
  const joins = new Map<string, JoinSeed[]>();
  const objectSeeds = chosen.flatMap((s) => (seedsOf.get(s) ?? []).filter((seed) => seed.predicate.role === "object"));
  await mapBounded(objectSeeds, CONCURRENCY, async (seed) => {
    if (timeUp()) return;
    const found = await readJoinSeeds(octx, seed, known, typePredicate, tables.has(seed.cls ?? "") ? { keys } : undefined).catch(failSoft(octx));
    joins.set(`${seed.predicate.iri} ${seed.cls ?? ""}`, found ?? []);
  });
  const env = { qb: new QueryBuilder(profile.prefixes, typePredicate), lexicon, maxRows: options.maxAnswerRows ?? DEFAULT_ONBOARDING_LIMITS.maxAnswerRows, joins, classes };
  // the same candidates the job makes for these classes with no cap: the first pass's shapes and the wider pass's, over
  // all their columns
  const candidates = chosen.flatMap((scope) => {
    const seeds = seedsOf.get(scope) ?? [];
    return [...scopeCandidates(scope, seeds, env).flat(), ...widerCandidates(scope, seeds, env)];
  });
  const implied = impliedTypes(profile);
  const fresh = new Map<string, { c: Candidate; template: string; question: string }>();
  const seen = new Set(options.have);
  for (const c of candidates) {
    const question = templateQuestion(c.frame);
    const template = question === undefined ? undefined : queryTemplate(c.sparql, { typePredicates: [typePredicate], impliedTypes: implied });
    if (question === undefined || !template || seen.has(template)) continue;
    seen.add(template);
    fresh.set(`a${fresh.size}`, { c, template, question });
  }
  const ranked = await options.rank([...fresh].map(([id, f]) => ({ id, question: f.question, sparql: f.c.sparql })));
  const want = options.examples ?? 5;
  const budget = options.candidates ?? 24;
  const kept: AimedExample[] = [];
  let ran = 0;
  for (let i = 0; i < ranked.length && kept.length < want && ran < budget && !timeUp(); i += CONCURRENCY) {
    const batch = ranked.slice(i, Math.min(i + CONCURRENCY, i + budget - ran)).flatMap((d) => fresh.get(d.id) ?? []);
    const verdicts = await mapBounded(batch, CONCURRENCY, (b) => executeCandidate(octx, b.c, env.maxRows, lexicon));
    ran += batch.length;
    batch.forEach((b, j) => {
      if (verdicts[j].keep && kept.length < want) kept.push({ question: b.question, sparql: b.c.sparql, template: b.template, shape: b.c.shape });
    });
  }
  const skipped = timeUp() ? "time ran out before enough examples were made" : undefined;
  return { examples: kept, classes: chosen.map((s) => s.name || "resources without a class"), ran, ...(skipped ? { skipped } : {}) };
}

// The sample values read for one question serve the next questions about the same classes: per KG object (one
// content; an endpoint's data changing under it leaves samples that are only older), per class and predicate.
const SEEDS = new WeakMap<object, Map<string, Promise<Seed | undefined>>>();
function cachedSeed(octx: OnboardingContext, scope: SeedScope, predicate: ProfilePredicate, typePredicate: string): Promise<Seed | undefined> {
  const kg = octx.ctx.kg;
  const seeds = SEEDS.get(kg) ?? new Map<string, Promise<Seed | undefined>>();
  SEEDS.set(kg, seeds);
  const key = `${scope.cls ?? ""} ${predicate.iri} ${typePredicate}`;
  const known = seeds.get(key);
  if (known) return known;
  const reading = readSeed(octx, scope, predicate, typePredicate);
  seeds.set(key, reading);
  // a failed read (a timeout, a cancelled turn) is tried again by the next question
  reading.catch(() => seeds.delete(key));
  return reading;
}

/** A failed read leaves its seed out; a KG that is gone (or a cancelled turn) ends the whole thing. */
function failSoft(octx: OnboardingContext): (e: unknown) => undefined {
  return (e: unknown) => {
    const err = toAppError(e);
    if (octx.ctx.signal?.aborted || FATAL.has(err.code)) throw err;
    return undefined;
  };
}
