// With an onboarding profile the workbench's vocabulary comes from it, without a query to the KG; a class the profile
// does not describe, or no profile, falls back to the bounded queries.
import { describe, expect, it } from "vitest";
import type { KgOnboardingProfile, ProfilePredicate } from "@/lib/kg/onboarding/types";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { currentClassPredicates, currentVocabulary } from "./vocabulary";

const EX = "http://example.org/kiln/";
const pred = (local: string, coverage: number): ProfilePredicate => ({ iri: EX + local, name: local, coverage, perSubject: 1, valueTypes: [], examples: [], exampleNames: {}, role: "other" });
const profile: KgOnboardingProfile = {
  version: 1,
  kgKey: "kilns",
  kgName: "Kilns",
  builtAt: "2026-11-28T00:00:00Z",
  prefixes: { k: EX },
  classes: [{ iri: `${EX}Kiln`, name: "kiln", count: 40, countSampled: false, superClasses: [], subClasses: [], predicates: [pred("firedAt", 1), pred("glaze", 0.5)], incoming: [], samples: [] }],
  otherPredicates: [{ iri: `${EX}note`, name: "note", count: 3 }],
  namingPredicates: [],
  idShapes: [],
  schema: { subClassOf: [], subPropertyOf: [], domain: [], range: [], inverseOf: [], enumerations: [] },
  literalForms: { datatypes: [], languages: [], dateForms: [], units: [] },
  skipped: [],
};

/** A KG that fails every query: whatever answers came from the profile. */
const noQueries = { info: { id: "kilns", kind: "embedded", name: "Kilns" }, profile: { typePredicates: [], prefixes: {}, labelPredicates: [] }, select: () => Promise.reject(new Error("queried")), query: () => Promise.reject(new Error("queried")) } as unknown as KnowledgeGraph;

describe("vocabulary from the onboarding profile", () => {
  it("lists the profile's classes and predicates (estimated uses) without querying the KG", async () => {
    const v = await currentVocabulary(noQueries, async () => profile);
    expect(v.source).toBe("profile");
    expect(v.classes).toEqual([{ iri: `${EX}Kiln`, label: "kiln", count: 40 }]);
    expect(v.predicates.map((p) => [p.iri.slice(EX.length), p.count])).toEqual([["firedAt", 40], ["glaze", 20], ["note", 3]]);
    expect(v.prefixes.k).toBe(EX);
  });

  it("gives a class's predicates by coverage, and falls back to queries for a class it does not describe", async () => {
    const r = await currentClassPredicates(noQueries, `${EX}Kiln`, async () => profile);
    expect(r.predicates.map((p) => p.label)).toEqual(["firedAt", "glaze"]);
    expect(r.instances).toBe(40);
    await expect(currentClassPredicates(noQueries, `${EX}Shed`, async () => profile)).resolves.toMatchObject({ predicates: [], instances: 0 });
    await expect(currentVocabulary(noQueries, async () => undefined)).rejects.toThrow("queried");
  });
});
