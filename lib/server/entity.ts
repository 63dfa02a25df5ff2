// The entity view behind clickable IRIs: label, types, description and up to 50 outgoing and 50 incoming edges.
import "server-only";
import { ENTITY_EDGE_CAP, type EntityEdge, type EntityResponse, type LabeledIri } from "@/lib/api/contract";
import { iri } from "@/lib/kg/escape";
import { localName } from "@/lib/kg/profile";
import type { KnowledgeGraph, QueryOptions, Term } from "@/lib/kg/types";
import { fetchLabels } from "./labels";

function values(variable: string, iris: string[]): string {
  return iris.length === 0 ? "" : `VALUES ?${variable} { ${iris.map(iri).join(" ")} }`;
}

function labelled(value: string, labels: Record<string, string>): LabeledIri {
  return { iri: value, label: labels[value] ?? localName(value) };
}

function withLabel(term: Term, labels: Record<string, string>): Term & { label?: string } {
  return term.type === "uri" && labels[term.value] ? { ...term, label: labels[term.value] } : term;
}

/** Looks an IRI up in the KG (the IRI is checked and escaped; a bad one is a 400). */
export async function describeEntity(kg: KnowledgeGraph, entityIri: string, options: QueryOptions = {}): Promise<EntityResponse> {
  const subject = iri(entityIri);
  const { typePredicates, descriptionPredicates, language } = kg.profile;
  const more = ENTITY_EDGE_CAP + 1; // one extra row says the list was capped
  const [types, descriptions, outgoing, incoming] = await Promise.all([
    typePredicates.length === 0
      ? Promise.resolve([])
      : kg.select(`SELECT DISTINCT ?t WHERE { ${values("tp", typePredicates)} ${subject} ?tp ?t . FILTER(isIRI(?t)) } LIMIT ${ENTITY_EDGE_CAP}`, options).then((r) => r.results.bindings),
    descriptionPredicates.length === 0
      ? Promise.resolve([])
      : kg.select(`SELECT ?d WHERE { ${values("dp", descriptionPredicates)} ${subject} ?dp ?d . FILTER(isLiteral(?d)) } LIMIT 20`, options).then((r) => r.results.bindings),
    kg.select(`SELECT ?p ?o WHERE { ${subject} ?p ?o } LIMIT ${more}`, options).then((r) => r.results.bindings),
    kg.select(`SELECT ?s ?p WHERE { ?s ?p ${subject} } LIMIT ${more}`, options).then((r) => r.results.bindings),
  ]);
  const out = outgoing.slice(0, ENTITY_EDGE_CAP).filter((b) => b.p && b.o);
  const inc = incoming.slice(0, ENTITY_EDGE_CAP).filter((b) => b.s && b.p);
  const iris = [
    entityIri,
    ...types.map((b) => b.t?.value ?? ""),
    ...out.flatMap((b) => [b.p.value, b.o.type === "uri" ? b.o.value : ""]),
    ...inc.flatMap((b) => [b.p.value, b.s.type === "uri" ? b.s.value : ""]),
  ].filter(Boolean);
  const labels = await fetchLabels(kg, iris, options);
  // preferred language first, then untagged, then any
  const description = descriptions
    .map((b) => b.d)
    .filter((d): d is Extract<Term, { type: "literal" }> => d?.type === "literal")
    .sort((a, b) => rank(a["xml:lang"], language) - rank(b["xml:lang"], language))[0]?.value;
  const edge = (p: Term, o: Term): EntityEdge => ({ predicate: labelled(p.value, labels), object: withLabel(o, labels) });
  return {
    iri: entityIri,
    label: labels[entityIri] ?? localName(entityIri),
    types: types.filter((b) => b.t).map((b) => labelled(b.t.value, labels)),
    ...(description ? { description } : {}),
    outgoing: out.map((b) => edge(b.p, b.o)),
    incoming: inc.map((b) => edge(b.p, b.s)),
    capped: outgoing.length > ENTITY_EDGE_CAP || incoming.length > ENTITY_EDGE_CAP,
  };
}

function rank(lang: string | undefined, preferred: string): number {
  const l = (lang ?? "").toLowerCase();
  return l === preferred.toLowerCase() ? 0 : l === "" ? 1 : 2;
}
