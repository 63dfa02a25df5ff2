// The profile shows example values for every predicate a class has, also when the few instances the data shape takes
// its examples from lack it (the overview showed "—" for predicates 60–70 % of the instances have).
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/orchards.ttl");

describe("example values in the profile", () => {
  it("has some for a predicate most instances have, though the first and last listed lack it", () => {
    const planted = fx.prepared.profile?.classes[0]?.predicates.find((p) => p.name === "planted year");
    expect(planted?.coverage).toBeCloseTo(0.6);
    expect(planted?.examples.length).toBeGreaterThanOrEqual(2);
    for (const e of planted?.examples ?? []) expect(Number(e.value)).toBeGreaterThan(1950);
  });
});
