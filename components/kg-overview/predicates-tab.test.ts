// The overview's predicate list: each predicate once, with every class whose instances use it, widest used first.
import { describe, expect, it } from "vitest";
import type { KgOnboardingProfile, ProfilePredicate } from "@/lib/kg/onboarding/types";
import { predicateRows } from "./predicates-tab";

const pred = (iri: string, coverage: number): ProfilePredicate => ({ iri, name: iri.slice(2), coverage, perSubject: 1, valueTypes: [], examples: [], exampleNames: {}, role: "other" });
const cls = (iri: string, predicates: ProfilePredicate[]) => ({ iri, name: iri, count: 1, countSampled: false, superClasses: [], subClasses: [], predicates, incoming: [], samples: [] });

describe("predicate rows", () => {
  it("lists a predicate once with all classes using it, the most shared first, then untyped-only ones", () => {
    const profile = {
      classes: [cls("C1", [pred("p:name", 1), pred("p:height", 0.5)]), cls("C2", [pred("p:name", 0.8)])],
      untyped: { count: 3, predicates: [pred("p:note", 1)], samples: [] },
    } as unknown as KgOnboardingProfile;
    const rows = predicateRows(profile);
    expect(rows.map((r) => r.predicate.iri)).toEqual(["p:name", "p:height", "p:note"]);
    expect(rows[0].classes).toEqual([
      { iri: "C1", coverage: 1 },
      { iri: "C2", coverage: 0.8 },
    ]);
    expect(rows[2].classes).toEqual([]);
  });
});
