// Under the example cap, every (class, kind of question) pair gets one example before any pair gets a second: a class
// with few kinds must not spend the cap on seconds while another class's late kinds have none. A table's plain column
// reads (list, sort, top, aggregates, …) take two turns a round, so under the cap they reach more of its columns; a
// table of relationships (links to two tables, pointed to by none) takes a turn every other round.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { COLUMN_READS, everyNth, fairOrder, isRelationTable, splitTurns } from "./examples";
import { prepareInMemory, type PreparedKg } from "./prepare";

const pairs = (p: PreparedKg) => {
  const n = new Map<string, number>();
  for (const e of p.examples) n.set(`${e.frame.cls ?? ""} ${e.frame.kind}`, (n.get(`${e.frame.cls ?? ""} ${e.frame.kind}`) ?? 0) + 1);
  return n;
};

const fx = usePreparedFixture("test/fixtures/kg/onboarding/kennels.ttl");
const tables = usePreparedFixture("test/fixtures/kg/onboarding/depots.nt");
const choirs = usePreparedFixture("test/fixtures/kg/onboarding/choirs.ttl");

describe("the example cap spreads over classes and kinds", () => {
  it("orders each (class, kind) pair's first candidate before any pair's second", () => {
    const a = [["a1", "a2", "a3"], ["b1"]];
    const b = [["c1"], ["d1"], ["e1"], ["f1"]];
    expect(fairOrder([a, b])).toEqual(["a1", "c1", "b1", "d1", "e1", "f1", "a2", "a3"]);
  });

  it("on a KG: with a cap below the number of pairs, no pair is kept twice (a table column read: no more than twice)", async () => {
    const all = pairs(fx.prepared);
    expect(all.size).toBeGreaterThan(20);
    const cap = Math.floor(all.size * 0.6);
    const capped = await prepareInMemory(fx.kg, { kgKey: "capped", limits: { maxExamples: cap } });
    expect(capped.examples).toHaveLength(cap);
    const kept = pairs(capped);
    // only a table's column reads (two turns a round) may be kept twice, never more
    expect([...kept].filter(([k, n]) => n > (COLUMN_READS.has(k.split(" ").at(-1) ?? "") ? 2 : 1))).toEqual([]);
    // and most of the cap still goes to distinct pairs
    expect(kept.size).toBeGreaterThan(cap * 0.7);
  });

  it("a queue split into turns gives its kind two places a round", () => {
    expect(splitTurns(["a1", "a2", "a3"], 2)).toEqual([["a1", "a3"], ["a2"]]);
    expect(fairOrder([[...splitTurns(["a1", "a2", "a3", "a4"], 2), ["b1", "b2"]]])).toEqual(["a1", "a2", "b1", "a3", "a4", "b2"]);
  });

  it("on a table-style KG under a small cap, the column lists reach every column people list, not just the first two", async () => {
    const depots = await prepareInMemory(tables.kg, { kgKey: "turns", limits: { maxExamples: 40 } });
    const listed = depots.examples.filter((e) => e.frame.kind === "list-attribute").map((e) => e.frame.p);
    expect(new Set(listed).size).toBeGreaterThanOrEqual(4);
  });

  it("a queue taking every other round leaves a gap in the rounds between", () => {
    expect(fairOrder([[everyNth(["a1", "a2"], 2)], [["b1", "b2", "b3"]]])).toEqual(["a1", "b1", "b2", "a2", "b3"]);
  });

  it("a table of relationships reads its own columns at half the pace of the tables it links", async () => {
    const byIri = new Map((choirs.prepared.profile?.classes ?? []).map((c) => [c.iri.split("/").at(-1), c]));
    // memberships link singers and choirs and nothing points to them; an audition links one singer only
    expect(["membership", "audition", "singer", "choir"].map((n) => isRelationTable(byIri.get(n)))).toEqual([true, false, false, false]);
    // stays link a dog and a kennel (and have dates of their own)
    const capped = await prepareInMemory(fx.kg, { kgKey: "relations", limits: { maxExamples: 200 } });
    expect(isRelationTable(capped.profile?.classes.find((c) => c.name === "stay"))).toBe(true);
    // its own columns' reads (what is asked across its links keeps its pace)
    const own = (cls: string) => capped.examples.filter((e) => e.frame.cls === cls && !/^(join-|chain|link-|key-)/.test(e.frame.kind)).length;
    expect(own("stay")).toBeGreaterThan(10);
    for (const linked of ["dog", "kennel"]) expect(own("stay"), linked).toBeLessThan(own(linked) * 0.8);
  });
});
