// Across a link, people ask by the linked thing's name or category ("the trucks at the depot named X"), not by its key
// column: on rows where every column is equally frequent, the two-hop paths go along names and texts first.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { hopPreference } from "./seeds";
import type { ProfilePredicate } from "./types";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/depots.nt");
const twoHop = () => fx.prepared.examples.filter((e) => e.shape === "two-hop" && /ref-depot_id/.test(e.sparql));

describe("two-hop examples across a link", () => {
  it("filter by the linked depot's name and city, and never go along its key column", () => {
    // the linked depot's predicates the paths go along (prefixed names of the depot table's columns)
    const along = twoHop().flatMap((e) => [...e.sparql.matchAll(/\?depot \w+:(\w+) /g)].map((m) => m[1]));
    expect(along).toContain("depot_name");
    expect(along).toContain("city");
    expect(along).not.toContain("depot_id");
    const byName = fx.prepared.examples.find((e) => e.frame.kind === "join-filter" && /depot name is (Harrow Yard|Fennick Lane|Orlen Cross)/.test(e.question));
    expect(byName, twoHop().map((e) => e.question).join("\n")).toBeDefined();
  });

  it("ranks names, then texts, then measures, then ids and key columns", () => {
    const p = (role: ProfilePredicate["role"], iri: string = role) => ({ iri, role }) as ProfilePredicate;
    const sorted = [p("id"), p("number"), p("text"), p("name"), p("number", "key")].sort((a, b) => hopPreference(a, new Set(["key"])) - hopPreference(b, new Set(["key"])));
    expect(sorted.map((x) => x.iri)).toEqual(["name", "text", "number", "id", "key"]);
  });
});
