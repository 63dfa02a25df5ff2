// What the oracle must know about a gold query's IRIs before the run: their labels and the labels of their types.
import { iri, isSafeIri } from "@/lib/kg/escape";
import { localName } from "@/lib/kg/profile";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { fetchLabelsWith, localNameWords } from "@/lib/pipeline/common/labels";
import type { GoldPlan } from "./oracle-llm-gold";

export interface OracleKgFacts {
  /** preferred label per IRI (profile label predicates, preferred language, then untagged) */
  labels: Map<string, string>;
  /** per entity IRI: the labels of its types, spelled as the vertex-selection hints spell them */
  types: Map<string, string[]>;
  /** the profile's prefixes, to recognise compact IRIs shown beside same-labelled predicates */
  prefixes: Record<string, string>;
  /** per entity IRI: its other names in the KG lexicon (a name predicate's value, an id, the IRI's local part), when fetched */
  names?: Map<string, string[]>;
}

const FACTS_TIMEOUT_MS = 30_000;

/** Preferred label per IRI; a failed query fails the facts (the oracle must not run on missing labels). */
function labelsOf(kg: KnowledgeGraph, iris: string[], signal?: AbortSignal): Promise<Map<string, string>> {
  const run = async (query: string) => (await kg.select(query, { timeoutMs: FACTS_TIMEOUT_MS, signal })).results.bindings;
  return fetchLabelsWith(run, iris, kg.profile, { signal, throwOnError: true });
}

/** Two or three read-only queries per item: labels of every gold IRI, the entities' types, and the types' labels. */
export async function fetchOracleFacts(kg: KnowledgeGraph, plan: GoldPlan, signal?: AbortSignal): Promise<OracleKgFacts> {
  const labels = await labelsOf(kg, [...plan.entityIris, ...plan.predicateIris, ...(plan.classes ?? []).map((c) => c.iri)], signal);
  const types = new Map<string, string[]>();
  const entities = plan.entityIris.filter(isSafeIri);
  const typePredicates = kg.profile.typePredicates.filter(isSafeIri);
  if (entities.length && typePredicates.length) {
    const q = `SELECT ?s ?t WHERE { VALUES ?s { ${entities.map(iri).join(" ")} } VALUES ?p { ${typePredicates.map(iri).join(" ")} } ?s ?p ?t . FILTER(isIRI(?t)) }`;
    const r = await kg.select(q, { timeoutMs: FACTS_TIMEOUT_MS, signal });
    const raw = new Map<string, string[]>();
    for (const row of r.results.bindings) if (row.s && row.t) raw.set(row.s.value, [...(raw.get(row.s.value) ?? []), row.t.value]);
    const typeLabels = await labelsOf(kg, [...raw.values()].flat(), signal);
    // why: the same fallback as the vertex hints (label, else local-name words), so the two spellings can be compared
    for (const [s, ts] of raw) types.set(s, [...new Set(ts.map((t) => typeLabels.get(t) ?? (localNameWords(t) || localName(t))))]);
  }
  return { labels, types, prefixes: kg.profile.prefixes };
}
