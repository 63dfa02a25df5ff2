// The explorer's own entity index, next to the profile's label-search adapter: label-like literals of any language or
// none (name-like predicates the data shape found, and the profile's label predicates when the adapter is not the
// embedded store's own index) and every IRI's decoded local name, so a KG whose names sit in e.g. an untagged
// `ex:name`, or whose IRIs carry no label at all, is still searchable. Built once per KG from bounded queries and cached;
// searched in process.
import { iri } from "@/lib/kg/escape";
import { LabelIndex } from "@/lib/kg/label-index";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { localNameWords } from "@/lib/pipeline/common/labels";
import { cachedPerKg } from "@/lib/pipeline/common/per-kg-cache";

export interface EntityIndexLimits {
  /** label rows read */
  labels: number;
  /** IRIs (subjects, then IRI objects) whose local names are indexed */
  iris: number;
}

export const DEFAULT_ENTITY_INDEX_LIMITS: EntityIndexLimits = { labels: 400_000, iris: 300_000 };

export interface EntityIndex {
  search(text: string, limit: number): { iri: string; label: string; lang?: string; score: number; fromIri: boolean }[];
  /** entries indexed (labels + local names) */
  size: number;
  /** a bound was hit: part of the KG is not indexed */
  truncated: boolean;
  buildMs: number;
}

export type EntityIndexCache = WeakMap<KnowledgeGraph, Promise<EntityIndex>>;
export const createEntityIndexCache = (): EntityIndexCache => new WeakMap();

/** The KG's entity index from `cache`, built on first use; a failed build is not cached. */
export async function getEntityIndex(
  cache: EntityIndexCache,
  ctx: AgentContext,
  stage: Stage,
  labelLike: string[],
  limits: EntityIndexLimits = DEFAULT_ENTITY_INDEX_LIMITS,
): Promise<EntityIndex> {
  return (await cachedPerKg(cache, ctx.kg, ctx.signal, () => buildEntityIndex(ctx, stage, labelLike, limits))).value;
}

async function select(ctx: AgentContext, stage: Stage, purpose: string, query: string) {
  const r = await ctx.sparql(stage, purpose, query);
  return r.kind === "SELECT" ? r.results.bindings : [];
}

/** Entries added between yields to the event loop (a large KG's index must not block the server for seconds). */
const CHUNK = 20_000;
const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));

export async function buildEntityIndex(ctx: AgentContext, stage: Stage, labelLike: string[], limits: EntityIndexLimits = DEFAULT_ENTITY_INDEX_LIMITS): Promise<EntityIndex> {
  const started = ctx.now();
  const index = new LabelIndex();
  let truncated = false;
  let added = 0;
  const pace = async () => {
    if (++added % CHUNK === 0) await yieldNow();
  };
  // the embedded store's own index already answers the profile's label predicates (any language): only the others here
  const byAdapter = new Set(ctx.kg.profile.labelSearch === "index" ? ctx.kg.profile.labelPredicates : []);
  const predicates = labelLike.filter((p) => !byAdapter.has(p));
  if (predicates.length) {
    const labels = await select(
      ctx,
      stage,
      "entity index: labels",
      `SELECT ?s ?l WHERE { VALUES ?p { ${predicates.map(iri).join(" ")} } ?s ?p ?l . FILTER(isIRI(?s) && isLiteral(?l)) } LIMIT ${limits.labels}`,
    );
    truncated ||= labels.length >= limits.labels;
    for (const b of labels) {
      if (!b.s || !b.l) continue;
      index.add(b.s.value, b.l.value, (b.l as { "xml:lang"?: string })["xml:lang"]);
      await pace();
    }
  }
  // every IRI is also found by the words of its decoded local name (an IRI with no label at all, e.g. an object that is
  // only ever pointed to, is found no other way)
  const seen = new Set<string>();
  const addLocal = async (value: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    const words = localNameWords(value);
    if (!words) return;
    index.add(value, words);
    await pace();
  };
  const subjects = await select(ctx, stage, "entity index: subjects", `SELECT DISTINCT ?x WHERE { ?x ?p ?o . FILTER(isIRI(?x)) } LIMIT ${limits.iris}`);
  truncated ||= subjects.length >= limits.iris;
  for (const b of subjects) await addLocal(b.x.value);
  const left = limits.iris - seen.size;
  if (left > 0) {
    const objects = await select(ctx, stage, "entity index: IRI objects", `SELECT DISTINCT ?x WHERE { ?s ?p ?x . FILTER(isIRI(?x)) } LIMIT ${left}`);
    truncated ||= objects.length >= left;
    for (const b of objects) await addLocal(b.x.value);
  }
  return {
    size: index.size,
    truncated,
    buildMs: ctx.now() - started,
    search(text, limit) {
      return (index.search(text, { limit }) as { iri: string; label: string; lang?: string; score: number }[]).map((h) => ({
        iri: h.iri,
        label: h.label,
        ...(h.lang ? { lang: h.lang } : {}),
        score: h.score,
        fromIri: h.label === localNameWords(h.iri),
      }));
    },
  };
}
