// Thresholds of "above n" / "below n" questions: some sampled rows pass and some do not, and on a large table only a
// handful pass (an example's answer must stay small).
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { threshold } from "./seeds";

describe("threshold", () => {
  it("steps off a value tied at the end of the sample", () => {
    const stars = [5, 5, 5, 5, 5, 5, 4, 3, 2, 1];
    expect(threshold(stars, "high", 10)).toBe(4);
    expect(threshold([1, 1, 1, 1, 2, 3], "low", 6)).toBe(2);
  });

  it("lets about a small number of rows pass on a large table, half on a small one", () => {
    const sample = Array.from({ length: 60 }, (_, i) => i + 1);
    expect(threshold(sample, "high", 600)).toBeGreaterThanOrEqual(55);
    expect(threshold(sample, "low", 600)).toBeLessThanOrEqual(5);
    expect(threshold(sample, "high", 40)).toBe(30);
  });

  it("needs a few values", () => {
    expect(threshold([1, 2], "high", 2)).toBeUndefined();
  });
});

const fx = usePreparedFixture("test/fixtures/kg/onboarding/tours.ttl");

describe("numeric filters on a column tied at the top", () => {
  it("asks for the tours above a rating some tours have", async () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "numeric-filter" && x.frame.dir === "high" && /stars/.test(x.sparql));
    expect(e, fx.prepared.examples.map((x) => `${x.frame.kind}: ${x.question}`).join("\n")).toBeDefined();
    const r = await fx.kg.query(e?.sparql ?? "");
    if (r.kind !== "SELECT") throw new Error("not a SELECT");
    expect(r.results.bindings).toHaveLength(6);
  });
});
