// Rows grouped by a column whose values repeat although it is a name or a date ("the workshops that did more than one
// repair", "the days with more than one repair"): the group shapes are not kept for categories alone.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/repairs.ttl");

async function groupsOf(column: RegExp, kind: string): Promise<string[]> {
  const e = fx.prepared.examples.find((x) => x.frame.kind === kind && column.test(x.sparql) && !x.frame.dir);
  expect(e, fx.prepared.examples.map((x) => `${x.frame.kind}: ${x.question}`).join("\n")).toBeDefined();
  const r = await fx.kg.query(e?.sparql ?? "");
  if (r.kind !== "SELECT") throw new Error(`not a SELECT: ${e?.sparql}`);
  return r.results.bindings.map((b) => b[r.head.vars[0]]?.value ?? "").sort();
}

describe("group shapes over a repeated name or date", () => {
  it("the names shared by more than one row", async () => {
    expect(await groupsOf(/workshop_name/, "group-having")).toEqual(["Gearwell", "Spokes & Co"]);
  });

  it("the dates shared by more than one row, and the count per name", async () => {
    expect(await groupsOf(/done_on/, "group-having")).toEqual(["2024-05-02"]);
    expect(await groupsOf(/workshop_name/, "count-per-group")).toEqual(["Gearwell", "Pedal Barn", "Spokes & Co"]);
  });
});
