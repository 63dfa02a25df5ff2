// Aggregates of a measure over the rows with a value of another column, on a fixture KG (quarries with a stone type
// that repeats, an opening year with few values and two measures): a total and an average, filtered by a category or
// by a year, in the form people write them (no type triples), answering from the KG — and never a total of years.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { impliedTypes, queryTemplate } from "./template";

const P = "PREFIX qy: <http://example.org/quarries/> ";
const fx = usePreparedFixture("test/fixtures/kg/onboarding/quarries.ttl");

const examples = () => fx.prepared.examples.filter((e) => e.frame.kind === "aggregate-with-value");
const template = (query: string) => queryTemplate(P + query, { impliedTypes: impliedTypes(fx.prepared.profile!) });
async function value(sparql: string): Promise<number> {
  const r = await fx.kg.query(sparql);
  return r.kind === "SELECT" ? Number(Object.values(r.results.bindings[0] ?? {})[0]?.value) : NaN;
}

describe("a measure aggregated over the rows with a value", () => {
  it("asks for the total of a measure over the rows of the most frequent category", async () => {
    const e = examples().find((x) => x.frame.agg === "sum" && x.frame.key === "stone type");
    expect(e?.question).toMatch(/^What is the total (output tonnes|workers) of the quarries whose stone type is granite\?$/);
    const m = e?.frame.p === "workers" ? "workers" : "output_tonnes";
    expect(e?.template).toBe(template(`SELECT (SUM(?m) AS ?sum) WHERE { ?q qy:stone_type "granite" ; qy:${m} ?m }`));
    expect(await value(e?.sparql ?? "")).toBe(m === "workers" ? 40 + 31 + 25 + 29 : 12000 + 9000 + 7300 + 8800);
  });

  it("filters by a year (a number with few values) as well as by a category, the average as well as the total", async () => {
    const e = examples().find((x) => x.frame.agg === "avg" && x.frame.key === "opened year");
    expect(e?.question).toMatch(/^What is the average (output tonnes|workers) of the quarries whose opened year is (1988|1995)\?$/);
    expect(e?.template).toBe(template(`SELECT (AVG(?m) AS ?avg) WHERE { ?q qy:opened_year 1988 ; qy:${e?.frame.p === "workers" ? "workers" : "output_tonnes"} ?m }`));
    expect(await value(e?.sparql ?? "")).toBeGreaterThan(0);
  });

  it("never totals or averages a year", () => {
    expect(examples().length).toBeGreaterThan(0);
    expect(examples().filter((x) => x.frame.p === "opened year")).toEqual([]);
  });
});
