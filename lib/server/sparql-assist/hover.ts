// What the workbench shows when the pointer rests on an IRI: its names (labels in every language), its types, a
// description, and how often it occurs as subject, object, predicate and class, each count bounded so a hub on a big
// endpoint costs no more than `countCap` rows.
import "server-only";
import type { BoundedCount, HoverResponse } from "@/lib/api/contract";
import { iri } from "@/lib/kg/escape";
import { localName } from "@/lib/kg/profile";
import type { KnowledgeGraph, QueryOptions, Term } from "@/lib/kg/types";
import { fetchLabels } from "../labels";

export const HOVER_COUNT_CAP = 10_000;
const MAX_NAMES = 8;

/** COUNT over a LIMITed subquery: the endpoint stops at cap+1 rows (exported for tests). */
export function boundedCountQuery(pattern: string, cap = HOVER_COUNT_CAP): string {
  return `SELECT (COUNT(*) AS ?n) WHERE { { SELECT * WHERE { ${pattern} } LIMIT ${cap + 1} } }`;
}

async function count(kg: KnowledgeGraph, pattern: string, options: QueryOptions): Promise<BoundedCount> {
  try {
    const r = await kg.select(boundedCountQuery(pattern), options);
    const n = Number(r.results.bindings[0]?.n?.value ?? 0);
    return n > HOVER_COUNT_CAP ? { n: HOVER_COUNT_CAP, capped: true } : { n, capped: false };
  } catch (e) {
    if (options.signal?.aborted) throw e;
    // a count that timed out is shown as unknown, not as zero
    return { n: -1, capped: false };
  }
}

const literalValues = (rows: Record<string, Term>[], v: string) =>
  rows.map((b) => b[v]).filter((t): t is Extract<Term, { type: "literal" }> => t?.type === "literal");

export async function hoverFacts(kg: KnowledgeGraph, value: string, options: QueryOptions = {}): Promise<HoverResponse> {
  const s = iri(value);
  const { labelPredicates, typePredicates, descriptionPredicates, language } = kg.profile;
  const values = (name: string, list: readonly string[]) => `VALUES ?${name} { ${list.map(iri).join(" ")} }`;
  const [names, types, descriptions, subject, object, predicate, instances] = await Promise.all([
    labelPredicates.length
      ? kg.select(`SELECT ?l WHERE { ${values("lp", labelPredicates)} ${s} ?lp ?l . FILTER(isLiteral(?l)) } LIMIT 50`, options).then((r) => literalValues(r.results.bindings, "l"))
      : Promise.resolve([]),
    typePredicates.length
      ? kg.select(`SELECT DISTINCT ?t WHERE { ${values("tp", typePredicates)} ${s} ?tp ?t . FILTER(isIRI(?t)) } LIMIT 20`, options).then((r) => r.results.bindings.map((b) => b.t?.value).filter(Boolean))
      : Promise.resolve([]),
    descriptionPredicates.length
      ? kg.select(`SELECT ?d WHERE { ${values("dp", descriptionPredicates)} ${s} ?dp ?d . FILTER(isLiteral(?d)) } LIMIT 10`, options).then((r) => literalValues(r.results.bindings, "d"))
      : Promise.resolve([]),
    count(kg, `${s} ?p ?o`, options),
    count(kg, `?s ?p ${s}`, options),
    count(kg, `?s ${s} ?o`, options),
    typePredicates.length ? count(kg, `${values("tp", typePredicates)} ?s ?tp ${s}`, options) : Promise.resolve({ n: 0, capped: false }),
  ]);
  const rank = (lang: string | undefined) => (lang === language ? 0 : !lang ? 1 : 2);
  const sorted = [...names].sort((a, b) => rank(a["xml:lang"]) - rank(b["xml:lang"]));
  const shown = [...new Set(sorted.map((l) => (l["xml:lang"] && l["xml:lang"] !== language ? `${l.value} (${l["xml:lang"]})` : l.value)))].slice(0, MAX_NAMES);
  const typeLabels = await fetchLabels(kg, types, options).catch(() => ({}) as Record<string, string>);
  const description = [...descriptions].sort((a, b) => rank(a["xml:lang"]) - rank(b["xml:lang"]))[0]?.value;
  return {
    iri: value,
    names: shown.length ? shown : [localName(value)],
    types: types.map((t) => ({ iri: t, label: typeLabels[t] ?? localName(t) })),
    ...(description ? { description: description.length > 300 ? `${description.slice(0, 299)}…` : description } : {}),
    counts: { subject, object, predicate, instances },
  };
}
