// Predicates that never answer a question (labels, descriptions, links to other datasets, provenance): relation
// linking leaves them out of the candidates (Chatty-KG's relation linking, Triad's relation selection).
import { NS } from "@/lib/kg/profile";
import type { KgProfile } from "@/lib/kg/types";
import { localNameWords } from "./labels";

const DROPPED = new Set([
  `${NS.owl}sameAs`,
  `${NS.owl}differentFrom`,
  `${NS.rdfs}seeAlso`,
  `${NS.rdfs}comment`,
  `${NS.rdfs}label`,
  `${NS.foaf}isPrimaryTopicOf`,
  `${NS.foaf}primaryTopic`,
  `${NS.schema}description`,
  "https://schema.org/description",
  `${NS.skos}prefLabel`,
  `${NS.skos}altLabel`,
]);
const DROPPED_PREFIXES = ["http://www.w3.org/ns/prov#"];

/** True for predicates that never answer a question (labels, links to other datasets, provenance). */
export function isBookkeeping(iri: string, ctx: { kg: { profile: Pick<KgProfile, "labelPredicates" | "descriptionPredicates"> } }): boolean {
  const { labelPredicates, descriptionPredicates } = ctx.kg.profile;
  if (DROPPED.has(iri) || labelPredicates.includes(iri) || descriptionPredicates.includes(iri)) return true;
  if (DROPPED_PREFIXES.some((p) => iri.startsWith(p))) return true;
  return /^wikipage/.test(localNameWords(iri).replace(/ /g, ""));
}
