// Label-search latency on a remote SPARQL endpoint through the KG profile's adapter (e.g. "virtuoso": bif:contains).
import type { KnowledgeGraph } from "@/lib/kg/types";
import { latency, searchTerms, type LatencyMeasure } from "./kg";

export async function benchRemoteLabelSearch(kg: KnowledgeGraph, args: { terms?: number; log?: (line: string) => void } = {}): Promise<LatencyMeasure> {
  const log = args.log ?? ((l: string) => console.log(l));
  const terms = await searchTerms(kg, args.terms ?? 200);
  if (terms.length === 0) throw new Error(`No labels found at ${kg.info.name} with the profile's label predicates (${kg.profile.labelPredicates.join(", ")}).`);
  await kg.searchLabels(terms[0].term, { limit: 10, timeoutMs: 120_000 }); // first query: connection and plan caches
  const m = await latency(terms, (t) => kg.searchLabels(t, { limit: 10, timeoutMs: 120_000 }));
  log(`  label search "${kg.profile.labelSearch}" on ${kg.info.name} (${m.n} terms): p50 ${m.p50} ms, p95 ${m.p95} ms, max ${m.max} ms, exact first hit ${m.firstHitExact}`);
  return m;
}
