// The names the KG itself gives a gold query's IRIs (the KG lexicon: label-like and name predicates it discovered, ids,
// local names), so a question-grounded oracle can recognise the question's mention of a thing that has no profile label
// (names in a custom predicate, opaque `urn:uuid` IRIs with an id literal). They only choose which span of the question
// to write; the text written is still the question's.
import { isOpaqueIri } from "@/lib/kg/lexicon";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { getLexicon } from "@/lib/pipeline/common/lexicon";

/** Per IRI: its names from the KG's own name predicates (best first), then its local name unless the IRI is opaque. */
export async function lexiconNamesOf(kg: KnowledgeGraph, iris: string[], signal?: AbortSignal): Promise<Map<string, string[]>> {
  const ctx = {
    kg,
    signal,
    now: () => performance.now(),
    emit: () => {},
    sparql: async (_stage: unknown, _purpose: string, query: string) => ({ kind: "SELECT" as const, ...(await kg.select(query, { timeoutMs: 60_000, signal })) }),
  };
  const { lexicon } = await getLexicon(ctx as unknown as Parameters<typeof getLexicon>[0], "explore");
  const out = new Map<string, string[]>();
  for (const i of iris) {
    const names = lexicon.namesOf(i).filter((n) => n.source.kind === "predicate" || !isOpaqueIri(i));
    if (names.length) out.set(i, [...new Set(names.map((n) => n.text))]);
  }
  return out;
}
