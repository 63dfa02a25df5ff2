// The overview's view of a profile: the KG's schema statements are not shown as things without a class or as data
// predicates, and label predicates the KG does not use are not shown as where its names are.
import { describe, expect, it } from "vitest";
import type { KgOnboardingProfile, ProfilePredicate } from "@/lib/kg/onboarding/types";
import { displayProfile } from "./display-profile";

const RDFS = "http://www.w3.org/2000/01/rdf-schema#";
const EX = "http://example.org/";
const pred = (iri: string): ProfilePredicate => ({ iri, name: iri, coverage: 1, perSubject: 1, valueTypes: [], examples: [], exampleNames: {}, role: "other" });
const cls = (iri: string, predicates: ProfilePredicate[]) => ({ iri, name: iri, count: 3, countSampled: false, superClasses: [], subClasses: [], predicates, incoming: [], samples: [] });
const schema = { subClassOf: [[`${EX}Barn`, `${EX}Building`]], subPropertyOf: [], domain: [[`${EX}owned_by`, `${EX}Building`]], range: [], inverseOf: [], enumerations: [] };

function profile(untyped: KgOnboardingProfile["untyped"], namingPredicates: KgOnboardingProfile["namingPredicates"]): KgOnboardingProfile {
  return {
    classes: [cls(`${EX}Barn`, [pred(`${EX}owned_by`), pred(`${EX}name`)])],
    untyped,
    otherPredicates: [{ iri: `${RDFS}subClassOf`, name: "sub Class Of", count: 1 }],
    namingPredicates,
    schema,
  } as unknown as KgOnboardingProfile;
}

describe("the overview's profile", () => {
  it("shows no 'things without a class' when they are only the KG's classes and properties described by its schema", () => {
    const p = displayProfile(
      profile({ count: 2, predicates: [pred(`${RDFS}subClassOf`), pred(`${RDFS}domain`)], samples: [{ iri: `${EX}Barn` }, { iri: `${EX}owned_by` }] }, []),
    );
    expect(p.untyped).toBeUndefined();
    expect(p.otherPredicates).toEqual([]);
  });

  it("keeps real things without a class, with their data predicates only, counted without the schema's subjects", () => {
    const p = displayProfile(
      profile({ count: 3, predicates: [pred(`${RDFS}domain`), pred(`${EX}note`)], samples: [{ iri: `${EX}owned_by` }, { iri: `${EX}memo_1` }, { iri: `${EX}memo_2` }] }, []),
    );
    expect(p.untyped?.predicates.map((x) => x.iri)).toEqual([`${EX}note`]);
    expect(p.untyped?.samples.map((x) => x.iri)).toEqual([`${EX}memo_1`, `${EX}memo_2`]);
    expect(p.untyped?.count).toBe(2);
  });

  it("lists a label predicate the KG profile looks for only when the KG uses it; found ones always", () => {
    const p = displayProfile(
      profile(undefined, [
        { iri: `${RDFS}label`, role: "label", why: "profile" },
        { iri: `${EX}name`, role: "label", why: "profile" },
        { iri: `${EX}code`, role: "id", why: "unique on 9 of 9 sampled" },
      ]),
    );
    expect(p.namingPredicates.map((n) => n.iri)).toEqual([`${EX}name`, `${EX}code`]);
  });
});
