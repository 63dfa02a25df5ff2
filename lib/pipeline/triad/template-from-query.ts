// A real SPARQL query turned into a Triad template: its predicates become relation slots <r0>…, its other IRIs entity
// slots <e0>… (rdf:type and the rdf/rdfs/xsd/owl vocabulary stay). Few-shot examples given as real queries, and the
// oracle's ceiling run (the gold query), are read this way.
import { parseSparql, stringifySparql } from "@/lib/kg/sparql-syntax";
import type * as Sparql from "sparqljs";
import { AppError } from "@/lib/errors";
import { NS } from "@/lib/kg/profile";
import { WELL_KNOWN_PREFIXES } from "@/lib/kg/well-known-prefixes";
import { namedNode } from "@/lib/pipeline/common/sparql-ast";
import { mapIris, parseTemplate, slotIri, type ParsedTemplate } from "./template";

const KEPT_NAMESPACES = [NS.rdf, NS.rdfs, NS.xsd, NS.owl];

export interface TemplateOfQuery {
  template: ParsedTemplate;
  /** slot id → the IRI it replaced */
  slots: Record<string, string>;
}

/** Replaces the IRIs of `sparql` by slots (one slot per distinct IRI and role); AppError("bad_request") when it does not parse. */
export function templateFromQuery(sparql: string): TemplateOfQuery {
  let ast: Sparql.SparqlQuery;
  try {
    const parsed = parseSparql(sparql, { prefixes: { ...WELL_KNOWN_PREFIXES } }); // rdfs:, xsd:, … may be undeclared
    if (parsed.type !== "query") throw new Error("an update, not a query");
    ast = parsed;
  } catch (e) {
    throw new AppError("bad_request", `Not a usable SPARQL query (${(e as Error).message.split("\n")[0]}).`);
  }
  const entity = new Map<string, string>();
  const relation = new Map<string, string>();
  const slotFor = (iri: string, asPredicate: boolean) => {
    const map = asPredicate ? relation : entity;
    let id = map.get(iri);
    if (!id) map.set(iri, (id = `${asPredicate ? "r" : "e"}${map.size}`));
    return id;
  };
  const slotted = mapIris({ ...ast, prefixes: {} }, (term, position) => {
    if (KEPT_NAMESPACES.some((ns) => term.value.startsWith(ns))) return term;
    return namedNode(slotIri(slotFor(term.value, position === "predicate")));
  }) as Sparql.SparqlQuery;
  const text = stringifySparql(slotted);
  const checked = parseTemplate(text.split(`<${slotIri("")}`).join("<"));
  if (!checked.ok) throw new AppError("bad_request", `The query cannot be used as a template: ${checked.reason}`);
  const slots: Record<string, string> = {};
  for (const [iri, id] of [...entity, ...relation]) slots[id] = iri;
  return { template: checked.value, slots };
}
