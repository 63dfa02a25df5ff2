// Under the example cap, every (class, kind of question) pair gets one example before any pair gets a second: a class
// with few kinds must not spend the cap on seconds while another class's late kinds have none.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { fairOrder } from "./examples";
import { prepareInMemory, type PreparedKg } from "./prepare";

const pairs = (p: PreparedKg) => {
  const n = new Map<string, number>();
  for (const e of p.examples) n.set(`${e.frame.cls ?? ""} ${e.frame.kind}`, (n.get(`${e.frame.cls ?? ""} ${e.frame.kind}`) ?? 0) + 1);
  return n;
};

let kg: KnowledgeGraph;
let full: PreparedKg;
beforeAll(async () => {
  kg = await openKg({ kind: "files", paths: ["test/fixtures/kg/onboarding/kennels.ttl"] });
  full = await prepareInMemory(kg);
}, 60_000);
afterAll(async () => {
  await kg?.close();
});

describe("the example cap spreads over classes and kinds", () => {
  it("orders each (class, kind) pair's first candidate before any pair's second", () => {
    const a = [["a1", "a2", "a3"], ["b1"]];
    const b = [["c1"], ["d1"], ["e1"], ["f1"]];
    expect(fairOrder([a, b])).toEqual(["a1", "c1", "b1", "d1", "e1", "f1", "a2", "a3"]);
  });

  it("on a KG: with a cap below the number of pairs, no pair is kept twice and more pairs are kept", async () => {
    const all = pairs(full);
    expect(all.size).toBeGreaterThan(20);
    const cap = Math.floor(all.size * 0.6);
    const capped = await prepareInMemory(kg, { kgKey: "capped", limits: { maxExamples: cap } });
    expect(capped.examples).toHaveLength(cap);
    const kept = pairs(capped);
    expect([...kept].filter(([, n]) => n > 1)).toEqual([]);
    expect(kept.size).toBe(cap);
  });
});
