// The KG's vocabulary for the workbench's completion: prefixes, classes and predicates with counts, and per class the
// predicates its instances use. Every query is bounded (a sample of triples, LIMITs, a timeout) and its answer is
// cached per KG object, so a big or slow endpoint costs a few queries once, and a failure is retried next time.
import "server-only";
import type { ClassPredicatesResponse, VocabularyResponse, VocabularyTerm } from "@/lib/api/contract";
import { toAppError } from "@/lib/errors";
import { iri } from "@/lib/kg/escape";
import type { KnowledgeGraph, Term } from "@/lib/kg/types";
import { cachedPerKg, type PerKgCache } from "@/lib/pipeline/common/per-kg-cache";
import { schemaPrefixes } from "@/lib/pipeline/common/prefixes";
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

export async function buildVocabulary(kg: KnowledgeGraph, limits: VocabularyLimits = DEFAULT_VOCABULARY_LIMITS): Promise<VocabularyResponse> {
  const { typePredicates, prefixes } = kg.profile;
  const [classes, predicates] = await Promise.all([
    typePredicates.length ? orEmpty(terms(kg, classQuery(typePredicates, limits), "c", limits.timeoutMs)) : Promise.resolve([]),
    orEmpty(terms(kg, predicateQuery(limits), "p", limits.timeoutMs)),
  ]);
  if (classes.length === 0 && predicates.length === 0) {
    // nothing at all is more likely an unreachable KG than an empty one: not kept, so the next request asks again
    await kg.select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1", { timeoutMs: limits.timeoutMs });
  }
  const [c, p] = await Promise.all([labelled(kg, classes, limits.timeoutMs), labelled(kg, predicates, limits.timeoutMs)]);
  return {
    prefixes: schemaPrefixes([...c, ...p].map((t) => t.iri), prefixes),
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
export async function knownPrefixes(kg: KnowledgeGraph, waitMs = 3_000): Promise<Record<string, string>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
  const vocabulary = await Promise.race([getVocabulary(kg).catch(() => undefined), late]);
  clearTimeout(timer);
  return vocabulary?.prefixes ?? kg.profile.prefixes;
}
