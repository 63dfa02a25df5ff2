// Schema cards (a VoID-style description of the KG): per class its instance count and most frequent predicates with
// their value ranges (classes or datatypes) and one example value; a card for resources without a class; the
// prefixes. Built once per KG from bounded queries (samples of instances, LIMITs) and cached per KG object.
import { toAppError } from "@/lib/errors";
import { iri } from "@/lib/kg/escape";
import type { KnowledgeGraph, Term } from "@/lib/kg/types";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels } from "@/lib/pipeline/common/labels";
import { cachedPerKg, type PerKgCache } from "@/lib/pipeline/common/per-kg-cache";
import { schemaPrefixes } from "@/lib/pipeline/common/prefixes";
import { mapBounded } from "@/lib/pipeline/map-bounded";

export interface CardLimits {
  /** classes given a card (most instances first) */
  classes: number;
  /** instances sampled per class to find its predicates and their ranges */
  instancesPerClass: number;
  /** type assertions / triples read by the counting queries (keeps GROUP BYs bounded on large endpoints) */
  sampleTriples: number;
  /** queries at once */
  concurrency: number;
}

export const DEFAULT_CARD_LIMITS: CardLimits = { classes: 200, instancesPerClass: 300, sampleTriples: 200_000, concurrency: 4 };

/** What the values of a predicate are: instances of a class, a literal datatype, other IRIs or blank nodes. */
export interface CardRange {
  kind: "class" | "datatype" | "iri" | "bnode";
  iri?: string;
  count: number;
}

export interface CardPredicate {
  iri: string;
  /** triples of the sampled instances with this predicate */
  count: number;
  ranges: CardRange[];
  example?: Term;
}

export interface SchemaCard {
  /** the class; undefined = the card of resources without a class */
  class?: string;
  label?: string;
  /** instances (within the counted sample) */
  count: number;
  /** most frequent first (all found; the prompt shows the top ones) */
  predicates: CardPredicate[];
}

export interface SchemaCards {
  kgId: string;
  cards: SchemaCard[];
  /** prefix → namespace for every compact name the cards show */
  prefixes: Record<string, string>;
  /** every predicate the sample saw, with its triple count */
  predicates: Map<string, number>;
  /** counts come from a sample of the graph, not all of it */
  sampled: boolean;
}

export type CardCache = PerKgCache<SchemaCards>;
export const createCardCache = (): CardCache => new WeakMap<KnowledgeGraph, Promise<SchemaCards>>();

export async function getSchemaCards(cache: CardCache, ctx: AgentContext, stage: Stage, limits: CardLimits = DEFAULT_CARD_LIMITS): Promise<{ cards: SchemaCards; cached: boolean }> {
  const { value, cached } = await cachedPerKg(cache, ctx.kg, ctx.signal, () => buildSchemaCards(ctx, stage, limits));
  return { cards: value, cached };
}

const num = (t: Term | undefined) => (Number.isFinite(Number(t?.value)) ? Number(t?.value) : 0);

async function select(ctx: AgentContext, stage: Stage, purpose: string, query: string) {
  const r = await ctx.sparql(stage, purpose, query, { perKgBuild: true });
  return r.kind === "SELECT" ? r.results.bindings : [];
}

/** Classes by instance count within the first `sampleTriples` type assertions. Exported for tests. */
export function cardClassQuery(typePredicate: string, limits: CardLimits): string {
  return `SELECT ?c (COUNT(DISTINCT ?s) AS ?n) WHERE { { SELECT ?s ?c WHERE { ?s ${iri(typePredicate)} ?c } LIMIT ${limits.sampleTriples} } FILTER(isIRI(?c)) } GROUP BY ?c ORDER BY DESC(?n) LIMIT ${limits.classes}`;
}

/** A class's predicates over a sample of its instances, grouped by value kind (class, datatype, iri, bnode). */
export function cardPredicateQuery(subjects: string, typePredicate: string): string {
  const t = iri(typePredicate);
  return `SELECT ?p ?k (COUNT(*) AS ?n) (SAMPLE(?o) AS ?ex) WHERE { ${subjects} ?s ?p ?o . OPTIONAL { ?o ${t} ?oc FILTER(isIRI(?oc)) } BIND(IF(isLiteral(?o), STR(DATATYPE(?o)), IF(BOUND(?oc), STR(?oc), IF(isBlank(?o), "_bnode", "_iri"))) AS ?k) } GROUP BY ?p ?k`;
}

/** Rows of cardPredicateQuery as predicates (a range is a datatype when its sample value is a literal). */
function predicatesOf(rows: Record<string, Term>[]): CardPredicate[] {
  const byP = new Map<string, CardPredicate>();
  for (const b of rows) {
    if (b.p?.type !== "uri" || !b.k) continue;
    const p = byP.get(b.p.value) ?? { iri: b.p.value, count: 0, ranges: [] };
    const n = num(b.n);
    const k = b.k.value;
    const range: CardRange = k === "_bnode" ? { kind: "bnode", count: n } : k === "_iri" ? { kind: "iri", count: n } : b.ex?.type === "literal" ? { kind: "datatype", iri: k, count: n } : { kind: "class", iri: k, count: n };
    p.ranges.push(range);
    // an object with two classes counts twice: the frequency is approximate, the order is what matters
    p.count += n;
    if (!p.example || (b.ex && b.ex.type !== "bnode" && p.example.type === "bnode")) p.example = b.ex;
    byP.set(p.iri, p);
  }
  for (const p of byP.values()) p.ranges.sort((a, b) => b.count - a.count);
  return [...byP.values()].sort((a, b) => b.count - a.count || a.iri.localeCompare(b.iri));
}

export async function buildSchemaCards(ctx: AgentContext, stage: Stage, limits: CardLimits = DEFAULT_CARD_LIMITS): Promise<SchemaCards> {
  const typePredicate = ctx.kg.profile.typePredicates[0];
  const classRows = typePredicate ? await select(ctx, stage, "schema cards: classes", cardClassQuery(typePredicate, limits)) : [];
  const classes = classRows.filter((b) => b.c?.type === "uri").map((b) => ({ iri: b.c.value, count: num(b.n) }));
  const predicateRows = await select(
    ctx,
    stage,
    "schema cards: predicates",
    `SELECT ?p (COUNT(*) AS ?n) WHERE { { SELECT ?p WHERE { ?s ?p ?o } LIMIT ${limits.sampleTriples} } } GROUP BY ?p`,
  );
  const predicates = new Map(predicateRows.filter((b) => b.p?.type === "uri").map((b) => [b.p.value, num(b.n)]));
  const perClass = await mapBounded(classes, limits.concurrency, async (c) => {
    const subjects = `{ SELECT ?s WHERE { ?s ${iri(typePredicate!)} ${iri(c.iri)} } LIMIT ${limits.instancesPerClass} }`;
    try {
      return predicatesOf(await select(ctx, stage, `schema cards: predicates of a class`, cardPredicateQuery(subjects, typePredicate!)));
    } catch (e) {
      // one class's card is a help, not a fact: a failed query leaves it empty (unless the turn was cancelled)
      if (toAppError(e).code === "aborted" || ctx.signal?.aborted) throw e;
      return [];
    }
  });
  // the card is the class: its type triples say nothing more
  const cards: SchemaCard[] = classes.map((c, i) => ({ class: c.iri, count: c.count, predicates: perClass[i].filter((p) => p.iri !== typePredicate) }));
  const untyped = await untypedCard(ctx, stage, limits, typePredicate);
  if (untyped) cards.push(untyped);
  const labels = await fetchLabels(ctx, stage, classes.map((c) => c.iri), "schema cards: class labels", { perKgBuild: true });
  for (const card of cards) if (card.class && labels.has(card.class)) card.label = labels.get(card.class);
  // example values' namespaces too: instances are then written compactly (res:X), in the cards and by the model
  const iris = [
    ...classes.map((c) => c.iri),
    ...predicates.keys(),
    ...cards.flatMap((c) => c.predicates.flatMap((p) => [...p.ranges.flatMap((r) => (r.iri ? [r.iri] : [])), ...(p.example?.type === "uri" ? [p.example.value] : [])])),
  ];
  return {
    kgId: ctx.kg.info.id,
    cards,
    prefixes: schemaPrefixes(iris, ctx.kg.profile.prefixes),
    predicates,
    sampled: (ctx.kg.info.triples ?? Infinity) > limits.sampleTriples,
  };
}

/** The predicates of subjects that have no class (a KG without types is all this card). */
async function untypedCard(ctx: AgentContext, stage: Stage, limits: CardLimits, typePredicate: string | undefined): Promise<SchemaCard | undefined> {
  const noType = typePredicate ? `FILTER NOT EXISTS { ?s ${iri(typePredicate)} ?anyClass }` : "";
  const subjects = `{ SELECT ?s WHERE { { SELECT DISTINCT ?s WHERE { ?s ?anyP ?anyO } LIMIT ${limits.sampleTriples} } ${noType} } LIMIT ${limits.instancesPerClass * 10} }`;
  try {
    const rows = await select(ctx, stage, "schema cards: resources without a class", cardPredicateQuery(subjects, typePredicate ?? "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"));
    const predicates = predicatesOf(rows);
    if (predicates.length === 0) return undefined;
    return { count: 0, predicates };
  } catch (e) {
    if (toAppError(e).code === "aborted" || ctx.signal?.aborted) throw e;
    return undefined;
  }
}
