// Display labels for the IRIs the SPARQL console and the entity view show, in batched VALUES queries.
import "server-only";
import type { KnowledgeGraph, QueryOptions, QueryResult } from "@/lib/kg/types";
import { fetchLabelsWith } from "@/lib/pipeline/common/labels";

/** At most this many IRIs are labelled per response (a 10,000-row result needs no 30,000 labels to be usable). */
export const MAX_LABELLED = 2000;

/** One label per IRI (preferred language, then untagged; earlier label predicates first). Failures leave IRIs unlabelled. */
export async function fetchLabels(kg: KnowledgeGraph, iris: Iterable<string>, options: QueryOptions = {}): Promise<Record<string, string>> {
  const labels = await fetchLabelsWith(async (query) => (await kg.select(query, options)).results.bindings, iris, kg.profile, {
    signal: options.signal,
    max: MAX_LABELLED,
  });
  return Object.fromEntries(labels);
}

/** Every IRI in a query result, in order of first appearance. */
export function irisOf(result: QueryResult): string[] {
  const seen = new Set<string>();
  if (result.kind === "SELECT") {
    for (const b of result.results.bindings) for (const t of Object.values(b)) if (t.type === "uri") seen.add(t.value);
  } else if (result.kind !== "ASK") {
    for (const t of result.triples) for (const term of [t.subject, t.predicate, t.object]) if (term.type === "uri") seen.add(term.value);
  }
  return [...seen];
}
