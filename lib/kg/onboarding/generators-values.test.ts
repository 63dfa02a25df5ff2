// Reads of the rows with a value, on a fixture KG (quarries with a stone type that repeats, an opening year with few
// values, a county code referring to a county row, two measures and a rank): a measure's total and average filtered by
// a category or by a year (never a total of years, amounts before ranks), how many rows have a code, and two columns of
// the row with a name (its key first) — in the form people write them (no type triples), answering from the KG.
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

  it("never totals or averages a year, takes amounts before a rank, and filters by a year but no other number", () => {
    expect(examples().length).toBeGreaterThan(0);
    expect(examples().filter((x) => x.frame.p === "opened year" || x.frame.p === "output rank")).toEqual([]);
    expect(examples().filter((x) => x.frame.key === "shifts")).toEqual([]);
  });
});

describe("rows with a code, and two columns of the row with a name", () => {
  it("asks how many rows have a code that refers to another row (a key column the per-column reads leave out)", async () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "count-with-value" && x.frame.p === "county code");
    expect(e?.question).toMatch(/^How many quarries have county code (NB|WD)\?$/);
    // the code column is shared with the county rows: the class stays in the query
    expect(e?.template).toBe(template(`SELECT (COUNT(?q) AS ?n) WHERE { ?q a qy:quarry ; qy:county_code "NB" }`));
    expect(await value(e?.sparql ?? "")).toBe(3);
  });

  it("lists a row's key before another column, as people do", async () => {
    const e = fx.prepared.examples.find((x) => x.frame.kind === "value-of-by-key" && x.frame.key === "county name" && x.frame.q);
    expect(e?.question).toMatch(/^What are the county code and area km 2 of the county whose county name is (Northbury|Westdale|Lynmoor)\?$/);
    expect(e?.template).toBe(template(`SELECT ?c ?a WHERE { ?x qy:county_name "Lynmoor" ; qy:county_code ?c ; qy:area_km2 ?a }`));
    const r = await fx.kg.query(e?.sparql ?? "");
    expect(r.kind === "SELECT" && r.results.bindings.map((b) => r.head.vars.map((v) => b[v]?.value))).toEqual([[{ Northbury: "NB", Westdale: "WD", Lynmoor: "LY" }[e?.frame.value ?? ""], { Northbury: "412.5", Westdale: "388.0", Lynmoor: "297.25" }[e?.frame.value ?? ""]]]);
  });
});
