// Display labels for the IRIs the SPARQL console and the entity view show, in batched VALUES queries.
import "server-only";
import { isSafeIri } from "@/lib/kg/escape";
import type { KnowledgeGraph, QueryOptions, QueryResult } from "@/lib/kg/types";
import { labelQuery, langRank } from "@/lib/pipeline/chatty-kg/agents/relation-linking-labels";

const BATCH = 400;
/** At most this many IRIs are labelled per response (a 10,000-row result needs no 30,000 labels to be usable). */
export const MAX_LABELLED = 2000;

/** One label per IRI (preferred language, then untagged; earlier label predicates first). Failures leave IRIs unlabelled. */
export async function fetchLabels(kg: KnowledgeGraph, iris: Iterable<string>, options: QueryOptions = {}): Promise<Record<string, string>> {
  const unique = [...new Set(iris)].filter(isSafeIri).slice(0, MAX_LABELLED);
  const { labelPredicates, language } = kg.profile;
  const out: Record<string, string> = {};
  const best = new Map<string, [number, number]>();
  for (let i = 0; i < unique.length; i += BATCH) {
    let rows;
    try {
      rows = (await kg.select(labelQuery(unique.slice(i, i + BATCH), labelPredicates, language), options)).results.bindings;
    } catch (e) {
      if (options.signal?.aborted) throw e;
      continue; // labels are a nicety: the IRIs still show
    }
    for (const row of rows) {
      const s = row.s?.value;
      const l = row.l;
      if (!s || !l || l.type !== "literal" || !l.value.trim()) continue;
      const rank: [number, number] = [langRank(l["xml:lang"], language), labelPredicates.indexOf(row.p?.value ?? "")];
      const prev = best.get(s);
      if (!prev || rank[0] < prev[0] || (rank[0] === prev[0] && rank[1] < prev[1])) {
        best.set(s, rank);
        out[s] = l.value.trim();
      }
    }
  }
  return out;
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
