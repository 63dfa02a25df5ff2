// The names the KG itself gives a gold query's IRIs (the KG lexicon: label-like and name predicates it discovered, ids,
// local names), so a question-grounded oracle can recognise the question's mention of a thing that has no profile label
// (names in a custom predicate, opaque `urn:uuid` IRIs with an id literal). They only choose which span of the question
// to write; the text written is still the question's.
import { iri, isSafeIri } from "@/lib/kg/escape";
import { isOpaqueIri, type Lexicon } from "@/lib/kg/lexicon";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { getLexicon } from "@/lib/pipeline/common/lexicon";

/**
 * The KG lexicon the pipeline builds for this KG object (cached per KG, so the oracle sees the names the pipeline can
 * find). The oracles only read it; its build runs SELECTs through `kg.select` with a timeout.
 */
export async function oracleLexicon(kg: KnowledgeGraph, signal?: AbortSignal): Promise<Lexicon> {
  const ctx = {
    kg,
    signal,
    now: () => performance.now(),
    emit: () => {},
    sparql: async (_stage: unknown, _purpose: string, query: string) => ({ kind: "SELECT" as const, ...(await kg.select(query, { timeoutMs: 60_000, signal })) }),
  };
  return (await getLexicon(ctx as unknown as Parameters<typeof getLexicon>[0], "entity-linking")).lexicon;
}

/**
 * Per IRI: its names from the KG's own name predicates (best first), its local name unless the IRI is opaque, then its
 * other short literal values (a code in a predicate the lexicon does not read as a name).
 */
export async function lexiconNamesOf(kg: KnowledgeGraph, iris: string[], signal?: AbortSignal): Promise<Map<string, string[]>> {
  const lexicon = await oracleLexicon(kg, signal);
  const out = new Map<string, string[]>();
  const values = await shortValuesOf(kg, iris, signal);
  for (const i of iris) {
    const names = lexicon.namesOf(i).filter((n) => n.source.kind === "predicate" || !isOpaqueIri(i)).map((n) => n.text);
    const all = [...new Set([...names, ...(values.get(i) ?? [])])];
    if (all.length) out.set(i, all);
  }
  return out;
}

/** Literal values of up to 80 characters each IRI has (at most 50 per IRI), one query. */
async function shortValuesOf(kg: KnowledgeGraph, iris: string[], signal?: AbortSignal): Promise<Map<string, string[]>> {
  const safe = iris.filter(isSafeIri);
  const out = new Map<string, string[]>();
  if (!safe.length) return out;
  const r = await kg.select(`SELECT ?s ?o WHERE { VALUES ?s { ${safe.map(iri).join(" ")} } ?s ?p ?o . FILTER(isLiteral(?o) && STRLEN(STR(?o)) <= 80) } LIMIT ${50 * safe.length}`, { timeoutMs: 60_000, signal });
  for (const b of r.results.bindings) if (b.s && b.o) out.set(b.s.value, [...(out.get(b.s.value) ?? []), b.o.value].slice(0, 50));
  return out;
}
