// Set questions over one table on a fixture KG (singers with a voice, a region and an age): a column's values shared
// by rows with one value and rows with another, or by rows above one bound and rows below another (IN over two copies
// of the rows), and a column's values except those of some rows (MINUS) — in the form people write them (no type
// triples), with a question in the KG's own names, answering from the KG.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { impliedTypes, queryTemplate } from "./template";

const P = "PREFIX ch: <http://example.org/choirs/> ";
const fx = usePreparedFixture("test/fixtures/kg/onboarding/choirs.ttl");
const col: Record<string, string> = { voice: "voice", region: "region", "singer name": "singer_name", age: "age" };

/** The singers as the fixture has them: name, voice, region, age. */
const SINGERS = [
  ["Odile Marsh", "alto", "north", 34],
  ["Bram Kettering", "tenor", "south", 51],
  ["Ysolde Penhale", "alto", "north", 27],
  ["Cassius Wren", "tenor", "east", 45],
  ["Maren Tollis", "alto", "north", 62],
  ["Jory Ashdown", "tenor", "west", 39],
  ["Ilse Varrow", "soprano", "south", 30],
] as const;
const INDEX: Record<string, number> = { "singer name": 0, voice: 1, region: 2, age: 3 };
/** The distinct values of column `p` of the singers a test picks, sorted. */
const valuesOf = (p: string, keep: (row: (typeof SINGERS)[number]) => boolean) => [...new Set(SINGERS.filter(keep).map((r) => String(r[INDEX[p]])))].sort();
const shared = (a: string[], b: string[]) => a.filter((x) => b.includes(x));

const example = (kind: string) => fx.prepared.examples.find((e) => e.frame.kind === kind && e.frame.cls === "singer");
const template = (query: string) => queryTemplate(P + query, { impliedTypes: impliedTypes(fx.prepared.profile!) });

async function answers(sparql: string): Promise<string[]> {
  const r = await fx.kg.query(sparql);
  return r.kind === "SELECT" ? r.results.bindings.map((b) => Object.values(b)[0]?.value ?? "").sort() : [];
}

describe("set questions over one table", () => {
  it("asks for a column's values shared by rows with one value and rows with another (columns whose values repeat)", async () => {
    // region has 4 values in 7 rows: a category although most of its values are distinct
    expect(fx.prepared.examples.some((e) => e.frame.kind === "set-both" && [e.frame.p, e.frame.key].includes("region"))).toBe(true);
    const e = example("set-both");
    const { p = "", key = "", value, value2 } = e?.frame ?? {};
    expect(e?.question).toBe(`Which ${p} values are shared by singers with ${key} ${value} and singers with ${key} ${value2}?`);
    expect(e?.template).toBe(template(`SELECT ?w WHERE { ?x ch:${col[key]} "${value}" . ?x ch:${col[p]} ?w . ?y ch:${col[key]} "${value2}" . ?y ch:${col[p]} ?v . FILTER(?w IN (?v)) }`));
    const expected = shared(valuesOf(p, (r) => r[INDEX[key]] === value), valuesOf(p, (r) => r[INDEX[key]] === value2));
    expect(expected.length).toBeGreaterThan(0);
    expect(await answers(e?.sparql ?? "")).toEqual(expected);
  });

  it("asks for a column's values shared by rows above one bound and rows below another", async () => {
    const e = example("set-both-range");
    const p = e?.frame.p ?? "";
    // the bounds are the sample's quartiles of age (27 30 34 39 45 51 62)
    expect(e?.question).toBe(`Which ${p} values have both singers with an age greater than 51 and singers with an age less than 30?`);
    expect(e?.template).toBe(template(`SELECT ?w WHERE { ?x ch:age ?a . ?x ch:${col[p]} ?w . ?y ch:age ?b . ?y ch:${col[p]} ?v . FILTER(?a > 51) FILTER(?b < 30) FILTER(?w IN (?v)) }`));
    expect(await answers(e?.sparql ?? "")).toEqual(shared(valuesOf(p, (r) => r[3] > 51), valuesOf(p, (r) => r[3] < 30)));
  });

  it("asks for a column's values except those of the rows with a value or above a bound", async () => {
    const e = example("set-none");
    const { p = "", key = "", value } = e?.frame ?? {};
    expect(e?.question).toBe(`List the ${p} of all singers except those of the singers with ${key} ${value}.`);
    expect(e?.template).toBe(template(`SELECT ?n WHERE { { SELECT (?a AS ?n) WHERE { ?x ch:${col[p]} ?a } } MINUS { SELECT (?b AS ?n) WHERE { ?y ch:${col[p]} ?b . ?y ch:${col[key]} "${value}" } } }`));
    const kept = await answers(e?.sparql ?? "");
    const excepted = await answers(`${P} SELECT DISTINCT ?n WHERE { ?y ch:${col[p]} ?n ; ch:${col[key]} "${value}" }`);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.filter((n) => excepted.includes(n))).toEqual([]);

    const range = example("set-none-range");
    expect(range?.question).toMatch(/^List the [\w ]+ of all singers except those of the singers with an age greater than 51\.$/);
    const q = range?.frame.p ?? "";
    expect(await answers(range?.sparql ?? "")).toEqual(valuesOf(q, () => true).filter((v) => !valuesOf(q, (r) => r[3] > 51).includes(v)));
  });
});
