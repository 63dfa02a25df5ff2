// Label search for the derivation panel's "find another vertex": the KG profile's own label-search adapter (the one
// entity linking uses), with type and description hints so same-named vertices can be told apart.
import "server-only";
import { ENTITY_SEARCH_CAP, type EntitySearchResponse } from "@/lib/api/contract";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { dedupeCandidates } from "@/lib/pipeline/common/entity-retriever";
import { fetchHints } from "@/lib/pipeline/common/vertex-hints";

/** Vertices whose label matches `text` (the text goes to the adapter as data; adapters escape it), best first. */
export async function searchEntities(kg: KnowledgeGraph, text: string, options: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<EntitySearchResponse> {
  const hits = await kg.searchLabels(text, { limit: ENTITY_SEARCH_CAP * 3, signal: options.signal, timeoutMs: options.timeoutMs });
  const top = dedupeCandidates(hits, kg.profile.language).slice(0, ENTITY_SEARCH_CAP);
  const ctx = { kg, signal: options.signal, sparql: (_stage: unknown, _purpose: string, query: string) => kg.query(query, options) };
  const hints = await fetchHints(ctx, top.map((c) => c.iri));
  return {
    hits: top.map((c) => {
      const h = hints.get(c.iri);
      return { iri: c.iri, label: c.label, score: c.score, types: h?.types ?? [], ...(h?.description ? { description: h.description } : {}) };
    }),
  };
}
