// Under the example cap, every (class, kind of question) pair gets one example before any pair gets a second: a class
// with few kinds must not spend the cap on seconds while another class's late kinds have none.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { fairOrder } from "./examples";
import { prepareInMemory, type PreparedKg } from "./prepare";

const pairs = (p: PreparedKg) => {
  const n = new Map<string, number>();
  for (const e of p.examples) n.set(`${e.frame.cls ?? ""} ${e.frame.kind}`, (n.get(`${e.frame.cls ?? ""} ${e.frame.kind}`) ?? 0) + 1);
  return n;
};

const fx = usePreparedFixture("test/fixtures/kg/onboarding/kennels.ttl");

describe("the example cap spreads over classes and kinds", () => {
  it("orders each (class, kind) pair's first candidate before any pair's second", () => {
    const a = [["a1", "a2", "a3"], ["b1"]];
    const b = [["c1"], ["d1"], ["e1"], ["f1"]];
    expect(fairOrder([a, b])).toEqual(["a1", "c1", "b1", "d1", "e1", "f1", "a2", "a3"]);
  });

  it("on a KG: with a cap below the number of pairs, no pair is kept twice and more pairs are kept", async () => {
    const all = pairs(fx.prepared);
    expect(all.size).toBeGreaterThan(20);
    const cap = Math.floor(all.size * 0.6);
    const capped = await prepareInMemory(fx.kg, { kgKey: "capped", limits: { maxExamples: cap } });
    expect(capped.examples).toHaveLength(cap);
    const kept = pairs(capped);
    expect([...kept].filter(([, n]) => n > 1)).toEqual([]);
    expect(kept.size).toBe(cap);
  });
});
