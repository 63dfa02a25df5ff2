// A naming predicate is never a hop outside tables: "What is the title of the region of coast X?" asks for the region
// itself, so no generated question reads a linked thing's name as an attribute; in a table-style KG the name column
// of a linked row is an attribute like any other ("the dog name of each stay").
import { afterAll, describe, expect, it } from "vitest";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { prepareInMemory } from "./prepare";

const HOPS = new Set(["chain-by-key", "join-list-two", "join-count-per-group", "join-group-most", "join-group-having"]);
const opened: KnowledgeGraph[] = [];
afterAll(async () => {
  for (const kg of opened) await kg.close();
});
async function examplesOf(path: string) {
  const kg = await openKg({ kind: "files", paths: [path] });
  opened.push(kg);
  const prepared = await prepareInMemory(kg);
  const names = new Set(prepared.profile?.namingPredicates.map((p) => p.iri));
  const nameWords = new Set([...(prepared.profile?.classes ?? [])].flatMap((c) => c.predicates.filter((p) => names.has(p.iri) || p.role === "name").map((p) => p.name)));
  return prepared.examples.filter((e) => HOPS.has(e.frame.kind) && nameWords.has(e.frame.q ?? "")).map((e) => e.question);
}

describe("a naming predicate as a hop", () => {
  it("is not asked across a link in a KG of things", async () => {
    expect(await examplesOf("test/fixtures/kg/onboarding/lighthouses.ttl")).toEqual([]);
  }, 60_000);

  it("is asked in a table-style KG, where a linked row's name column is an attribute", async () => {
    expect((await examplesOf("test/fixtures/kg/onboarding/kennels.ttl")).length).toBeGreaterThan(0);
  }, 60_000);
});
