// The profile as the overview shows it. Two things read wrong to a person otherwise: the KG's own schema statements
// (rdfs:subClassOf, rdfs:domain, owl:… — their subjects are classes and properties, which have no class) listed as
// "things without a class" and as data predicates, although the Schema tab shows them; and the usual label predicates
// the KG profile looks for ("set in the KG profile") listed under "Where names are" on a KG that uses none of them.
import type { KgOnboardingProfile, ProfilePredicate } from "@/lib/kg/onboarding/types";
import { NS } from "@/lib/kg/profile";

const SCHEMA_PREDICATES = new Set([
  `${NS.rdfs}subClassOf`,
  `${NS.rdfs}subPropertyOf`,
  `${NS.rdfs}domain`,
  `${NS.rdfs}range`,
  `${NS.rdf}first`,
  `${NS.rdf}rest`,
]);

/** A predicate that states the KG's schema (it says what classes and properties are), not a thing's data. */
export const isSchemaPredicate = (iri: string) => SCHEMA_PREDICATES.has(iri) || iri.startsWith(NS.owl);

export function displayProfile(profile: KgOnboardingProfile): KgOnboardingProfile {
  const used = new Set<string>([
    ...profile.classes.flatMap((c) => c.predicates.map((p) => p.iri)),
    ...(profile.untyped?.predicates.map((p) => p.iri) ?? []),
    ...profile.otherPredicates.map((p) => p.iri),
  ]);
  // classes and properties are what schema statements are about
  const vocabulary = new Set<string>([
    ...profile.classes.map((c) => c.iri),
    ...used,
    ...Object.values(profile.schema).flatMap((pairs) => (pairs as [string, unknown][]).map(([s]) => s)),
  ]);
  let untyped = profile.untyped;
  if (untyped) {
    const predicates = untyped.predicates.filter((p: ProfilePredicate) => !isSchemaPredicate(p.iri));
    const samples = untyped.samples.filter((s) => !vocabulary.has(s.iri));
    // every resource without a class was sampled: count what is left; else the count stays a sample's
    const count = untyped.count <= untyped.samples.length ? samples.length : untyped.count;
    untyped = predicates.length > 0 && count > 0 ? { count, predicates, samples } : undefined;
  }
  return {
    ...profile,
    untyped,
    otherPredicates: profile.otherPredicates.filter((p) => !isSchemaPredicate(p.iri)),
    namingPredicates: profile.namingPredicates.filter((n) => n.why !== "profile" || used.has(n.iri)),
  };
}
