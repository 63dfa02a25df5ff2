// The KG schema summary the one-shot baseline shows its model: frequent classes and predicates with labels, counts and
// example triples, built once per KG from bounded queries and cached per KG object.
import { toAppError } from "@/lib/errors";
import { iri } from "@/lib/kg/escape";
import { compactIri } from "@/lib/kg/profile";
import type { KnowledgeGraph, Term } from "@/lib/kg/types";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels } from "@/lib/pipeline/common/labels";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import { schemaPrefixes, showTerm } from "@/lib/pipeline/common/prefixes";
import { cachedPerKg } from "@/lib/pipeline/common/per-kg-cache";

export { schemaPrefixes, showTerm };

export interface SchemaLimits {
  predicates: number;
  classes: number;
  examplesPerPredicate: number;
  /** triples (type assertions) read per counting query: keeps the GROUP BY bounded on large endpoints */
  sampleTriples: number;
  /** queries for example triples run at once */
  concurrency: number;
}

export const DEFAULT_SCHEMA_LIMITS: SchemaLimits = { predicates: 50, classes: 30, examplesPerPredicate: 3, sampleTriples: 100_000, concurrency: 4 };

export interface SchemaEntry {
  iri: string;
  label?: string;
  count: number;
}

export interface SchemaPredicate extends SchemaEntry {
  /** "subject object" pairs in display form */
  examples: [string, string][];
}

export interface KgSchema {
  kgId: string;
  classes: SchemaEntry[];
  predicates: SchemaPredicate[];
  /** prefix -> namespace for every compact name used in `text` (profile prefixes plus generated ones) */
  prefixes: Record<string, string>;
  /** true when the counts come from a sample of the graph, not all of it */
  sampled: boolean;
  /** the summary as the prompt shows it */
  text: string;
}

/** One schema per KG object; a WeakMap so a closed, dropped KG takes its schema with it. */
export type SchemaCache = WeakMap<KnowledgeGraph, Promise<KgSchema>>;
export const createSchemaCache = (): SchemaCache => new WeakMap();

/**
 * The KG's schema from `cache`, built (through ctx, so its queries appear in the trace under `stage`) on first use.
 * A failed or cancelled build is not cached: the next turn tries again.
 */
export async function getKgSchema(
  cache: SchemaCache,
  ctx: AgentContext,
  stage: Stage,
  limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS,
): Promise<{ schema: KgSchema; cached: boolean }> {
  const { value, cached } = await cachedPerKg(cache, ctx.kg, ctx.signal, () => buildKgSchema(ctx, stage, limits));
  return { schema: value, cached };
}

function countOf(term: Term | undefined): number {
  const n = Number(term?.value);
  return Number.isFinite(n) ? n : 0;
}

async function counted(ctx: AgentContext, stage: Stage, purpose: string, query: string): Promise<SchemaEntry[]> {
  const r = await ctx.sparql(stage, purpose, query, { perKgBuild: true });
  if (r.kind !== "SELECT") return [];
  return r.results.bindings.filter((b) => b.x?.type === "uri").map((b) => ({ iri: b.x.value, count: countOf(b.n) }));
}

/** Top predicates by frequency within the first `sampleTriples` triples. Exported for tests. */
export function predicateQuery(limits: SchemaLimits): string {
  return `SELECT ?x (COUNT(*) AS ?n) WHERE { { SELECT ?x WHERE { ?s ?x ?o } LIMIT ${limits.sampleTriples} } } GROUP BY ?x ORDER BY DESC(?n) LIMIT ${limits.predicates}`;
}

/** Top classes by instance count within the first `sampleTriples` type assertions. Exported for tests. */
export function classQuery(typePredicates: string[], limits: SchemaLimits): string {
  const values = typePredicates.map(iri).join(" ");
  return `SELECT ?x (COUNT(*) AS ?n) WHERE { { SELECT ?x WHERE { VALUES ?t { ${values} } ?s ?t ?x } LIMIT ${limits.sampleTriples} } } GROUP BY ?x ORDER BY DESC(?n) LIMIT ${limits.classes}`;
}

export async function buildKgSchema(ctx: AgentContext, stage: Stage, limits: SchemaLimits = DEFAULT_SCHEMA_LIMITS): Promise<KgSchema> {
  const { profile } = ctx.kg;
  const predicates = await counted(ctx, stage, "schema: frequent predicates", predicateQuery(limits));
  const classes = profile.typePredicates.length ? await counted(ctx, stage, "schema: frequent classes", classQuery(profile.typePredicates, limits)) : [];
  const labels = await fetchLabels(ctx, stage, [...predicates, ...classes].map((e) => e.iri), "schema: labels", { perKgBuild: true });
  const withLabel = <T extends SchemaEntry>(e: T): T => (labels.has(e.iri) ? { ...e, label: labels.get(e.iri) } : e);

  const rawExamples = await mapBounded(predicates, limits.concurrency, (p) => exampleTriples(ctx, stage, p.iri, limits.examplesPerPredicate));
  const exampleIris = rawExamples.flat(2).flatMap((t) => (t.type === "uri" ? [t.value] : t.type === "literal" && t.datatype ? [t.datatype] : []));
  const prefixes = schemaPrefixes([...predicates, ...classes].map((e) => e.iri).concat(exampleIris), profile.prefixes);
  const fullPredicates: SchemaPredicate[] = predicates.map((p, i) => ({
    ...withLabel(p),
    examples: rawExamples[i].map(([s, o]): [string, string] => [showTerm(s, prefixes), showTerm(o, prefixes)]),
  }));
  const fullClasses = classes.map(withLabel);
  // counts are exact only when the whole graph fits in the sample (unknown size: assume it does not)
  const sampled = (ctx.kg.info.triples ?? Infinity) > limits.sampleTriples;
  const schema = { kgId: ctx.kg.info.id, classes: fullClasses, predicates: fullPredicates, prefixes, sampled };
  return { ...schema, text: renderSchema(schema, ctx.kg.profile.labelPredicates, limits) };
}

async function exampleTriples(ctx: AgentContext, stage: Stage, predicate: string, n: number): Promise<[Term, Term][]> {
  if (n <= 0) return [];
  try {
    const r = await ctx.sparql(stage, "schema: example triples", `SELECT ?s ?o WHERE { ?s ${iri(predicate)} ?o } LIMIT ${n}`, { perKgBuild: true });
    if (r.kind !== "SELECT") return [];
    return r.results.bindings.filter((b) => b.s && b.o).map((b): [Term, Term] => [b.s, b.o]);
  } catch (e) {
    // examples are a help, not a fact: a failed query leaves the predicate without them (unless the turn was cancelled)
    if (toAppError(e).code === "aborted" || ctx.signal?.aborted) throw e;
    return [];
  }
}

function renderSchema(schema: Omit<KgSchema, "text">, labelPredicates: string[], limits: SchemaLimits): string {
  const p = schema.prefixes;
  const used = new Set<string>();
  const show = (value: string) => {
    const c = compactIri(value, p);
    if (!c.startsWith("<")) used.add(c.slice(0, c.indexOf(":")));
    return c;
  };
  const label = (e: SchemaEntry) => (e.label ? ` "${e.label}"` : "");
  const lines: string[] = [];
  const counts = schema.sampled ? `counts over at most ${limits.sampleTriples} triples read` : "counts";
  lines.push(`Label predicates: ${labelPredicates.map(show).join(", ")}`);
  if (schema.classes.length) {
    lines.push("", `Classes (most frequent first; label; ${counts}):`);
    for (const c of schema.classes) lines.push(`- ${show(c.iri)}${label(c)} (${c.count})`);
  }
  lines.push("", `Predicates (most frequent first; label; ${counts}; example triples):`);
  for (const pr of schema.predicates) {
    lines.push(`- ${show(pr.iri)}${label(pr)} (${pr.count})`);
    for (const [s, o] of pr.examples) {
      for (const term of [s, o]) {
        const m = /^([A-Za-z][\w.-]*):|\^\^([A-Za-z][\w.-]*):/.exec(term);
        if (m) used.add(m[1] ?? m[2]);
      }
      lines.push(`    ${s} ${show(pr.iri)} ${o}`);
    }
  }
  const prefixLines = [...used].filter((name) => p[name] !== undefined).sort().map((name) => `PREFIX ${name}: <${p[name]}>`);
  return [...prefixLines, "", ...lines].join("\n");
}
