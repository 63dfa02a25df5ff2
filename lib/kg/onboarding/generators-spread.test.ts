// Columns whose values mostly differ but still repeat (a destination two tours share, a region of a few tours each):
// people count and total per such a column ("the number of tours to each destination", "the average price per
// region"), though it is no category — the shapes run, and the degenerate-answer filter judges what comes back.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";

const fx = usePreparedFixture("test/fixtures/kg/onboarding/tours.ttl");

async function rowsOf(kind: string, column: RegExp): Promise<string[]> {
  const e = fx.prepared.examples.find((x) => x.frame.kind === kind && column.test(x.sparql) && !x.frame.dir);
  expect(e, fx.prepared.examples.map((x) => `${x.frame.kind}: ${x.question}`).join("\n")).toBeDefined();
  const r = await fx.kg.query(e?.sparql ?? "");
  if (r.kind !== "SELECT") throw new Error(`not a SELECT: ${e?.sparql}`);
  return r.results.bindings.map((b) => r.head.vars.map((v) => b[v]?.value ?? "").join(" ")).sort();
}

describe("group shapes over columns whose values mostly differ", () => {
  it("counts the rows per destination when one destination repeats", async () => {
    const rows = await rowsOf("count-per-group", /destination/);
    expect(rows).toHaveLength(9);
    expect(rows).toContain("Lisbon 2");
  });

  it("averages a measure per region (six regions over ten rows)", async () => {
    const rows = await rowsOf("aggregate-per-group", /region[\s\S]*AVG|AVG[\s\S]*region/);
    expect(rows).toHaveLength(6);
    expect(rows).toContain("Atlantic Coast 100");
  });
});
