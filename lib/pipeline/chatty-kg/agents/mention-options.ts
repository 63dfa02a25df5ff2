// The options a mention has besides the label search's vertices: a literal value the KG holds, or an IRI without a
// label whose local name is the mention ("united states" → …/United_States).
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels, localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";
import type { ValueType } from "../state";
import { kgSchemaLists } from "./kg-schema-cache";
import { searchValues } from "./value-search";
import type { IriOption, ValueOption } from "./vertex-selection";

/** The value option for a text/number/date, when the KG holds it under a (non-label) predicate. */
export async function valueOption(text: string, type: ValueType, ctx: AgentContext): Promise<ValueOption | undefined> {
  const match = await searchValues(text, type, ctx);
  if (match.carriers.length === 0) return undefined;
  const carriers = match.carriers.map((c) => c.iri);
  const labels = await fetchLabels(ctx, "entity-linking", carriers, "labels of the predicates carrying the value");
  const first = match.terms[0];
  return {
    kind: "value",
    // as the KG writes it ("Alfama" for "alfama")
    text: first?.type === "literal" ? first.value : text,
    type,
    terms: match.terms,
    carriers,
    carriedBy: carriers.map((c) => labels.get(c) ?? localNameWords(c)),
  };
}

/** IRIs without a label whose local name's words are the mention's (small KGs only; see kg-schema-cache.ts). */
export async function unlabelledOptions(mention: string, ctx: AgentContext): Promise<IriOption[]> {
  const lists = await kgSchemaLists(ctx);
  const wanted = normalizeLabel(mention.replace(/[_-]+/g, " "));
  return lists.unlabelled.filter((u) => normalizeLabel(u.words) === wanted).map((u) => ({ kind: "unlabelled", iri: u.iri, label: u.words, exact: true }));
}
