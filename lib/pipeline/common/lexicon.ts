// The KG lexicon as the strategies use it: built once per KG object (its queries show in the derivation of the turn
// that built it), cached while the KG lives, and searched with the matched name reported to the trace.
import type { KnowledgeGraph } from "@/lib/kg/types";
import { compactIri } from "@/lib/kg/profile";
import { buildLexicon, DEFAULT_LEXICON_LIMITS, describeSource, type BuiltLexicon, type LexiconHit, type LexiconLimits, type TermKind } from "@/lib/kg/lexicon";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "./agent-context";
import { cachedPerKg, type PerKgCache } from "./per-kg-cache";

const cache: PerKgCache<BuiltLexicon> = new WeakMap();

/** The KG's lexicon, built on first use under `stage` (a failed or cancelled build is not kept). */
export async function getLexicon(ctx: Pick<AgentContext, "kg" | "sparql" | "signal" | "now" | "emit">, stage: Stage, limits: LexiconLimits = DEFAULT_LEXICON_LIMITS): Promise<BuiltLexicon> {
  const { value, cached } = await cachedPerKg(cache, ctx.kg, ctx.signal, () =>
    buildLexicon(
      async (purpose, query) => {
        const r = await ctx.sparql(stage, purpose, query, { perKgBuild: true });
        return r.kind === "SELECT" ? r.results.bindings : [];
      },
      ctx.kg.profile,
      limits,
      ctx.now,
    ),
  );
  if (!cached) {
    const { namePredicates, ...rest } = value.stats;
    const show = (p: string) => compactIri(p, ctx.kg.profile.prefixes);
    ctx.emit({
      type: "tool-call",
      stage,
      tool: "lexicon",
      input: { kg: ctx.kg.info.id },
      output: { ...rest, namePredicates: namePredicates.map((p) => ({ predicate: show(p.predicate), role: p.role, why: p.why })) },
    });
  }
  return value;
}

/** Lexicon score of a hit that holds every word of the searched text (as typed or inflected); see Lexicon.search. */
export const STRONG_MATCH = 2 / 3;

/** True when the lexicon of this KG object is built (or being built). */
export const hasLexicon = (kg: KnowledgeGraph) => cache.has(kg);

/** Up to this many triples a KG's lexicon is built without being asked (larger endpoints have their own text search). */
export const LEXICON_AUTO_TRIPLES = 5_000_000;
const small = new WeakMap<KnowledgeGraph, Promise<boolean>>();

/**
 * Is the KG small enough to build its lexicon on the way (an embedded store, or an endpoint that answers a bounded
 * probe `… OFFSET n LIMIT 1` with nothing)? A failed probe says no.
 */
export function lexiconAffordable(ctx: Pick<AgentContext, "kg" | "sparql" | "signal">, stage: Stage): Promise<boolean> {
  const { kg } = ctx;
  if (kg.info.triples !== undefined) return Promise.resolve(kg.info.triples <= LEXICON_AUTO_TRIPLES);
  if (kg.info.kind === "embedded") return Promise.resolve(true);
  let p = small.get(kg);
  if (!p) {
    p = ctx
      .sparql(stage, "is the KG small enough for a lexicon? (asked once per KG)", `SELECT ?s WHERE { ?s ?p ?o } OFFSET ${LEXICON_AUTO_TRIPLES} LIMIT 1`)
      .then((r) => r.kind === "SELECT" && r.results.bindings.length === 0)
      .catch((e) => {
        if (ctx.signal?.aborted) throw e;
        return false;
      });
    small.set(kg, p);
  }
  return p;
}

/** A hit as the derivation shows it: the IRI, its display name, the name that matched and where that name came from. */
export function hitForTrace(h: LexiconHit, prefixes: Record<string, string>) {
  return {
    iri: h.iri,
    kind: h.kind,
    name: h.display,
    matched: h.matched.text,
    via: describeSource(h.matched.source, (p) => compactIri(p, prefixes)),
    score: Math.round(h.score * 1000) / 1000,
    ...(h.stemmed ? { stemmed: true } : {}),
  };
}

/** Looks `text` up in the KG's lexicon and reports the hits (with the matched names) to the trace under `stage`. */
export async function lookUpTerms(ctx: AgentContext, stage: Stage, text: string, options: { limit: number; kinds?: TermKind[] }): Promise<LexiconHit[]> {
  const { lexicon } = await getLexicon(ctx, stage);
  const hits = lexicon.search(text, options);
  ctx.emit({
    type: "tool-call",
    stage,
    tool: "lexicon-search",
    input: { text, kinds: options.kinds ?? ["entity", "class", "property"], limit: options.limit },
    output: { count: hits.length, top: hits.slice(0, 10).map((h) => hitForTrace(h, ctx.kg.profile.prefixes)) },
  });
  return hits;
}
