import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, NS } from "@/lib/kg/profile";
import { isBookkeeping } from "./bookkeeping";

const ctx = { kg: { profile: { ...DEFAULT_PROFILE, labelPredicates: [...DEFAULT_PROFILE.labelPredicates, "http://ex.org/v#title"] } } };

describe("isBookkeeping", () => {
  it("drops labels (incl. the profile's own), descriptions, links to other datasets and provenance", () => {
    for (const iri of [`${NS.rdfs}label`, "http://ex.org/v#title", `${NS.rdfs}comment`, `${NS.owl}sameAs`, "http://www.w3.org/ns/prov#wasDerivedFrom", "http://dbpedia.org/ontology/wikiPageID"]) {
      expect(isBookkeeping(iri, ctx), iri).toBe(true);
    }
  });

  it("keeps predicates that can answer a question, and rdf:type", () => {
    for (const iri of ["http://ex.org/v#author", "http://ex.org/v#releaseDate", `${NS.rdf}type`]) expect(isBookkeeping(iri, ctx), iri).toBe(false);
  });
});
