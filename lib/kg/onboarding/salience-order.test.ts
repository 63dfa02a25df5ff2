// A table's columns all have the same coverage, so the profile's order (alphabetical) would decide which column pairs
// get examples; instead names come first and key columns last, as people ask of tables.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { salienceOrder } from "./examples";
import { prepareInMemory } from "./prepare";
import type { Seed } from "./seeds";
import type { ProfilePredicate } from "./types";

const seed = (name: string, role: ProfilePredicate["role"], coverage = 1, keyOf?: string): Seed => ({
  count: 3,
  predicate: { iri: `http://example.org/t#${name}`, name, role, coverage } as ProfilePredicate,
  // a key column repeats the key its row's IRI carries
  pairs: ["1", "2", "3"].map((k) => ({ s: `http://example.org/t/row_id=${k}`, o: { type: "literal" as const, value: keyOf ? k : `${name} ${k}` } })),
  distinctShare: 1,
});

describe("salienceOrder", () => {
  it("puts a table's name column first and its key column last; coverage still comes first", () => {
    const ordered = salienceOrder([seed("a_id", "number", 1, "key"), seed("amount", "number"), seed("code", "id"), seed("label", "name"), seed("note", "text", 0.4), seed("kind", "text")]);
    expect(ordered.map((s) => s.predicate.name)).toEqual(["label", "kind", "amount", "code", "a_id", "note"]);
  });

  const fx = usePreparedFixture("test/fixtures/kg/onboarding/depots.nt");
  it("on a table KG under a small cap, the examples ask about names and values, not key columns", async () => {
    const few = await prepareInMemory(fx.kg, { kgKey: "few", limits: { maxExamples: 30 } });
    const keyed = few.examples.filter((e) => [e.frame.p, e.frame.q, e.frame.key].some((c) => c === "depot id" || c === "truck id"));
    expect(keyed.map((e) => e.question)).toEqual([]);
  });
});
