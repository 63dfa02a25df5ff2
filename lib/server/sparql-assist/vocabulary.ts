// The KG's vocabulary for the workbench's completion: prefixes, classes and predicates with counts, and per class the
// predicates its instances use. Every query is bounded (a sample of triples, LIMITs, a timeout) and its answer is
// cached per KG object, so a big or slow endpoint costs a few queries once, and a failure is retried next time.
import "server-only";
import type { ClassPredicatesResponse, VocabularyResponse, VocabularyTerm } from "@/lib/api/contract";
import { toAppError } from "@/lib/errors";
import { iri } from "@/lib/kg/escape";
import type { KgOnboardingProfile } from "@/lib/kg/onboarding/types";
import type { KnowledgeGraph, Term } from "@/lib/kg/types";
import { cachedPerKg, type PerKgCache } from "@/lib/pipeline/common/per-kg-cache";
import { namespaceOf, schemaPrefixes } from "@/lib/pipeline/common/prefixes";
import { fetchLabels } from "../labels";

export interface VocabularyLimits {
  /** triples (type assertions, any triples) read by the counting queries */
  sampleTriples: number;
  classes: number;
  predicates: number;
  /** instances of a class sampled to find its predicates */
  instancesPerClass: number;
  /** each query's timeout */
  timeoutMs: number;
  /** classes whose predicates are kept per KG */
  classCache: number;
}

export const DEFAULT_VOCABULARY_LIMITS: VocabularyLimits = {
  sampleTriples: 200_000,
  classes: 500,
  predicates: 1000,
  instancesPerClass: 500,
  timeoutMs: 15_000,
  classCache: 200,
};

const vocabularies: PerKgCache<VocabularyResponse> = new WeakMap();
const classPredicates = new WeakMap<KnowledgeGraph, Map<string, Promise<ClassPredicatesResponse>>>();

const num = (t: Term | undefined) => (Number.isFinite(Number(t?.value)) ? Number(t?.value) : 0);

/** Classes by instances within the first `sampleTriples` type assertions (exported for tests). */
export function classQuery(typePredicates: readonly string[], limits: VocabularyLimits): string {
  const types = typePredicates.map(iri).join(" ");
  return `SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { { SELECT ?s ?c WHERE { VALUES ?tp { ${types} } ?s ?tp ?c } LIMIT ${limits.sampleTriples} } FILTER(isIRI(?c)) } GROUP BY ?c ORDER BY DESC(?n) LIMIT ${limits.classes}`;
}

export function predicateQuery(limits: VocabularyLimits): string {
  return `SELECT ?p (COUNT(*) AS ?n) WHERE { { SELECT ?p WHERE { ?s ?p ?o } LIMIT ${limits.sampleTriples} } } GROUP BY ?p ORDER BY DESC(?n) LIMIT ${limits.predicates}`;
}

export function classPredicateQuery(cls: string, typePredicates: readonly string[], limits: VocabularyLimits): string {
  const types = typePredicates.map(iri).join(" ");
  return `SELECT ?p (COUNT(*) AS ?n) (COUNT(DISTINCT ?s) AS ?i) WHERE { { SELECT DISTINCT ?s WHERE { VALUES ?tp { ${types} } ?s ?tp ${iri(cls)} } LIMIT ${limits.instancesPerClass} } ?s ?p ?o } GROUP BY ?p ORDER BY DESC(?n) LIMIT ${limits.predicates}`;
}

async function terms(kg: KnowledgeGraph, query: string, variable: string, timeoutMs: number): Promise<VocabularyTerm[]> {
  const r = await kg.select(query, { timeoutMs });
  return r.results.bindings.filter((b) => b[variable]?.type === "uri").map((b) => ({ iri: b[variable].value, count: num(b.n) }));
}

async function labelled(kg: KnowledgeGraph, list: VocabularyTerm[], timeoutMs: number): Promise<VocabularyTerm[]> {
  const labels = await fetchLabels(kg, list.map((t) => t.iri), { timeoutMs }).catch(() => ({}) as Record<string, string>);
  return list.map((t) => (labels[t.iri] ? { ...t, label: labels[t.iri] } : t));
}

/** A query that failed leaves its list empty (completion then offers less), unless the request was cancelled. */
async function orEmpty(work: Promise<VocabularyTerm[]>): Promise<VocabularyTerm[]> {
  try {
    return await work;
  } catch (e) {
    if (toAppError(e).code === "aborted") throw e;
    return [];
  }
}

/** Subjects of the first triples: their namespaces get prefixes too, so entities are written compactly (res:X). */
export const SUBJECT_SAMPLE = 2000;
const MIN_NAMESPACE_USES = 3;
const MAX_ENTITY_NAMESPACES = 20;

/** Namespaces (up to the last # or /) used by at least MIN_NAMESPACE_USES of the IRIs, most used first. */
export function frequentNamespaces(iris: string[]): string[] {
  const counts = new Map<string, number>();
  for (const v of iris) {
    const ns = namespaceOf(v);
    if (ns) counts.set(ns, (counts.get(ns) ?? 0) + 1);
  }
  return [...counts].filter(([, n]) => n >= MIN_NAMESPACE_USES).sort((a, b) => b[1] - a[1]).slice(0, MAX_ENTITY_NAMESPACES).map(([ns]) => ns);
}

async function subjectIris(kg: KnowledgeGraph, timeoutMs: number): Promise<string[]> {
  try {
    const r = await kg.select(`SELECT DISTINCT ?s WHERE { ?s ?p ?o FILTER(isIRI(?s)) } LIMIT ${SUBJECT_SAMPLE}`, { timeoutMs });
    return r.results.bindings.flatMap((b) => (b.s?.type === "uri" ? [b.s.value] : []));
  } catch {
    return [];
  }
}

/**
 * Every predicate the store can list quickly (an index lookup on most engines), best effort with a short timeout: the
 * counted sample reads the first triples only, which a file loaded in order may fill with one or two predicates.
 */
export function distinctPredicateQuery(limits: VocabularyLimits): string {
  return `SELECT DISTINCT ?p WHERE { ?s ?p ?o } LIMIT ${limits.predicates}`;
}
const DISTINCT_PREDICATES_TIMEOUT_MS = 5_000;

export async function buildVocabulary(kg: KnowledgeGraph, limits: VocabularyLimits = DEFAULT_VOCABULARY_LIMITS): Promise<VocabularyResponse> {
  const { typePredicates, prefixes } = kg.profile;
  const [classes, counted, listed, subjects] = await Promise.all([
    typePredicates.length ? orEmpty(terms(kg, classQuery(typePredicates, limits), "c", limits.timeoutMs)) : Promise.resolve([]),
    orEmpty(terms(kg, predicateQuery(limits), "p", limits.timeoutMs)),
    orEmpty(terms(kg, distinctPredicateQuery(limits), "p", Math.min(limits.timeoutMs, DISTINCT_PREDICATES_TIMEOUT_MS))),
    subjectIris(kg, limits.timeoutMs),
  ]);
  // counted ones first (most used first), then the ones only listed (count 0: not in the sample)
  const seen = new Set(counted.map((t) => t.iri));
  const predicates = [...counted, ...listed.filter((t) => !seen.has(t.iri)).map((t) => ({ iri: t.iri, count: 0 }))].slice(0, limits.predicates);
  if (classes.length === 0 && predicates.length === 0) {
    // nothing at all is more likely an unreachable KG than an empty one: not kept, so the next request asks again
    await kg.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", { timeoutMs: limits.timeoutMs });
  }
  const [c, p] = await Promise.all([labelled(kg, classes, limits.timeoutMs), labelled(kg, predicates, limits.timeoutMs)]);
  return {
    // a namespace stands for itself (schemaPrefixes names the namespace of each IRI given: `${ns}x` has namespace ns)
    prefixes: schemaPrefixes([...[...c, ...p].map((t) => t.iri), ...frequentNamespaces(subjects).map((ns) => `${ns}x`)], prefixes),
    classes: c,
    predicates: p,
    sampled: (kg.info.triples ?? Infinity) > limits.sampleTriples,
    source: "queries",
  };
}

/** The KG's vocabulary, built once per KG object (a failed build is not kept). */
export async function getVocabulary(kg: KnowledgeGraph, signal?: AbortSignal, limits?: VocabularyLimits): Promise<VocabularyResponse> {
  return (await cachedPerKg(vocabularies, kg, signal, () => buildVocabulary(kg, limits))).value;
}

async function buildClassPredicates(kg: KnowledgeGraph, cls: string, limits: VocabularyLimits): Promise<ClassPredicatesResponse> {
  const { typePredicates } = kg.profile;
  if (typePredicates.length === 0) return { class: cls, predicates: [], instances: 0 };
  const r = await kg.select(classPredicateQuery(cls, typePredicates, limits), { timeoutMs: limits.timeoutMs });
  const rows = r.results.bindings.filter((b) => b.p?.type === "uri");
  // the type predicate itself says nothing about the class's instances that the class does not
  const list = rows.filter((b) => !typePredicates.includes(b.p.value)).map((b) => ({ iri: b.p.value, count: num(b.n) }));
  return { class: cls, predicates: await labelled(kg, list, limits.timeoutMs), instances: Math.max(0, ...rows.map((b) => num(b.i))) };
}

/** The predicates that instances of `cls` use, cached per KG and class (the least recently asked class goes first). */
export async function getClassPredicates(kg: KnowledgeGraph, cls: string, limits: VocabularyLimits = DEFAULT_VOCABULARY_LIMITS): Promise<ClassPredicatesResponse> {
  iri(cls); // a bad IRI is a 400 before anything is cached
  let perKg = classPredicates.get(kg);
  if (!perKg) classPredicates.set(kg, (perKg = new Map()));
  const hit = perKg.get(cls);
  if (hit) {
    perKg.delete(cls);
    perKg.set(cls, hit);
    return hit;
  }
  const building = buildClassPredicates(kg, cls, limits);
  perKg.set(cls, building);
  if (perKg.size > limits.classCache) perKg.delete(perKg.keys().next().value as string);
  building.catch(() => {
    if (perKg.get(cls) === building) perKg.delete(cls);
  });
  return building;
}

/** The KG's prefixes for formatting: the vocabulary's when it is ready within `waitMs`, else the profile's. */
export async function knownPrefixes(kg: KnowledgeGraph, waitMs = 3_000, profile?: ProfileSource): Promise<Record<string, string>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  const vocabulary = await Promise.race([currentVocabulary(kg, profile).catch(() => undefined), late]);
  clearTimeout(timer);
  return vocabulary?.prefixes ?? kg.profile.prefixes;
}

// ---- the onboarding profile, when the KG has one (lib/kg/onboarding): the same facts, already gathered ----

/** The KG's onboarding profile, if its profile phase has finished (undefined otherwise, or when it cannot be read). */
export type ProfileSource = () => Promise<KgOnboardingProfile | undefined>;

const estimate = (classCount: number, p: { coverage: number; perSubject: number }) => Math.max(1, Math.round(classCount * p.coverage * Math.max(1, p.perSubject)));

export function vocabularyFromProfile(profile: KgOnboardingProfile): VocabularyResponse {
  const predicates = new Map<string, VocabularyTerm>();
  const add = (iri: string, label: string, count: number) => {
    const t = predicates.get(iri) ?? { iri, label, count: 0 };
    t.count += count;
    predicates.set(iri, t);
  };
  for (const c of profile.classes) for (const p of c.predicates) add(p.iri, p.name, estimate(c.count, p));
  for (const p of profile.untyped?.predicates ?? []) add(p.iri, p.name, estimate(profile.untyped?.count ?? 1, p));
  for (const p of profile.otherPredicates) add(p.iri, p.name, p.count);
  const classes = profile.classes.map((c) => ({ iri: c.iri, label: c.name, count: c.count }));
  const list = [...predicates.values()].sort((a, b) => b.count - a.count);
  return {
    prefixes: schemaPrefixes([...classes, ...list].map((t) => t.iri), profile.prefixes),
    classes,
    predicates: list,
    sampled: profile.classes.some((c) => c.countSampled) || profile.skipped.length > 0,
    source: "profile",
  };
}

/** A class's predicates from the profile (undefined: the profile does not describe the class). */
export function classPredicatesFromProfile(profile: KgOnboardingProfile, cls: string): ClassPredicatesResponse | undefined {
  const c = profile.classes.find((x) => x.iri === cls);
  if (!c) return undefined;
  return { class: cls, predicates: c.predicates.map((p) => ({ iri: p.iri, label: p.name, count: estimate(c.count, p) })), instances: c.count };
}

async function profileOf(source: ProfileSource | undefined): Promise<KgOnboardingProfile | undefined> {
  try {
    return await source?.();
  } catch {
    return undefined; // the profile is a help: without it the bounded queries answer
  }
}

/** The vocabulary from the onboarding profile when there is one, else from the bounded, cached queries. */
export async function currentVocabulary(kg: KnowledgeGraph, profile?: ProfileSource, signal?: AbortSignal): Promise<VocabularyResponse> {
  const p = await profileOf(profile);
  return p ? vocabularyFromProfile(p) : getVocabulary(kg, signal);
}

export async function currentClassPredicates(kg: KnowledgeGraph, cls: string, profile?: ProfileSource): Promise<ClassPredicatesResponse> {
  const p = await profileOf(profile);
  return (p && classPredicatesFromProfile(p, cls)) ?? getClassPredicates(kg, cls);
}
