// Label search for the derivation panel's "find another vertex": the KG profile's own label-search adapter (the one
// entity linking uses), with type and description hints so same-named vertices can be told apart.
import "server-only";
import { ENTITY_SEARCH_CAP, type EntitySearchResponse } from "@/lib/api/contract";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { dedupeCandidates, type VertexCandidate } from "@/lib/pipeline/common/entity-retriever";
import { getLexicon, lexiconAffordable, STRONG_MATCH } from "@/lib/pipeline/common/lexicon";
import { fetchHints } from "@/lib/pipeline/common/vertex-hints";

/** Vertices whose label matches `text` (the text goes to the adapter as data; adapters escape it), best first. */
export async function searchEntities(kg: KnowledgeGraph, text: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<EntitySearchResponse> {
  const hits = await kg.searchLabels(text, { limit: ENTITY_SEARCH_CAP * 3, signal: options.signal, timeoutMs: options.timeoutMs });
  let top: VertexCandidate[] = dedupeCandidates(hits, kg.profile.language).slice(0, ENTITY_SEARCH_CAP);
  const ctx = { kg, signal: options.signal, sparql: (_stage: unknown, _purpose: string, query: string) => kg.query(query, options) };
  // the profile's labels know nothing of it: the KG lexicon's names, as entity linking does
  if (top.length === 0) top = await lexiconVertices(kg, text, options);
  const hints = await fetchHints(ctx, top.map((c) => c.iri));
  return {
    hits: top.map((c) => {
      const h = hints.get(c.iri);
      return { iri: c.iri, label: c.label, score: c.score, types: h?.types ?? [], ...(h?.description ? { description: h.description } : {}) };
    }),
  };
}

/** Entities and classes whose lexicon names hold every word of `text` (small KGs only; [] when the lexicon fails). */
async function lexiconVertices(kg: KnowledgeGraph, text: string, options: { signal?: AbortSignal; timeoutMs?: number }): Promise<VertexCandidate[]> {
  const ctx = { kg, signal: options.signal, now: () => performance.now(), emit: () => {}, sparql: (_stage: unknown, _purpose: string, query: string) => kg.query(query, options) };
  try {
    if (!(await lexiconAffordable(ctx, "entity-linking"))) return [];
    const { lexicon } = await getLexicon(ctx, "entity-linking");
    return lexicon
      .search(text, { limit: ENTITY_SEARCH_CAP, kinds: ["entity", "class"] })
      .filter((h) => h.score >= STRONG_MATCH)
      .map((h) => ({ iri: h.iri, label: h.display, score: h.score }));
  } catch (e) {
    if (options.signal?.aborted) throw e;
    return [];
  }
}
