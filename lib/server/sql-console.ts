// The query panel's SQL runner: one read-only SELECT over the database RAGONITE induced from the KG (the same cache
// the strategy uses, built on first use), cells turned back into RDF terms and labelled like the SPARQL panel's.
import "server-only";
import { SPARQL_ROW_CAP, type SparqlResponse } from "@/lib/api/contract";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { sqlAsSelect } from "@/lib/pipeline/ragonite/evidence";
import type { KnowledgeCache } from "@/lib/pipeline/ragonite/knowledge";
import { defaultKnowledgeCache } from "@/lib/pipeline/ragonite/strategy";
import { fetchLabels, irisOf } from "./labels";

export async function runConsoleSql(
  kg: KnowledgeGraph,
  query: string,
  options: { signal?: AbortSignal; rowCap?: number; timeoutMs?: number; cache?: KnowledgeCache } = {},
): Promise<SparqlResponse> {
  const rowCap = options.rowCap ?? SPARQL_ROW_CAP;
  const { knowledge } = await (options.cache ?? defaultKnowledgeCache()).get(kg, { signal: options.signal });
  const r = await knowledge.db.query(query, { maxRows: rowCap, timeoutMs: options.timeoutMs ?? 30_000, signal: options.signal });
  const result = sqlAsSelect(r, (key) => knowledge.facts.resources.has(key));
  const labels = await fetchLabels(kg, irisOf(result), { signal: options.signal });
  return { result, ms: r.ms, truncated: r.truncated, rowCap, labels };
}
