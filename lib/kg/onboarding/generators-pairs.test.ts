// Two columns of a class's rows on a fixture KG (ferries with an id, a name, a home port, a tonnage and two service
// dates): of the top row by a measure, sorted by the name or by a measure, two sibling columns of every row, and two
// columns of the rows with a value — in the form people write them (no type triples), with a question in the KG's own
// names, answering from the KG.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { siblingPairs } from "./generators-pairs";
import type { Seed } from "./seeds";
import { impliedTypes, queryTemplate } from "./template";

const P = "PREFIX fy: <http://example.org/ferries/> ";
const fx = usePreparedFixture("test/fixtures/kg/onboarding/ferries.ttl");

/** The ferries as the fixture has them: id, name, home port, tonnage, service start, service end. */
const FERRIES = [
  [1, "Gannet Star", "Kelwick", 5200, "1998-04-01", "2019-10-31"],
  [2, "Morwen Isle", "Tarrow Bay", 8100, "2003-06-15", "2021-03-01"],
  [3, "Cobble Wren", "Kelwick", 2950, "1991-09-20", "2008-12-12"],
  [4, "Aster Light", "Dunmere", 6400, "2010-02-05", "2024-07-30"],
  [5, "Harrow Gull", "Tarrow Bay", 4300, "2001-11-11", "2016-05-09"],
  [6, "Velvet Tern", "Kelwick", 7050, "2012-08-24", "2025-01-17"],
] as const;

const examples = (kind: string) => fx.prepared.examples.filter((e) => e.frame.kind === kind && e.frame.cls === "ferry");
const template = (query: string) => queryTemplate(P + query, { impliedTypes: impliedTypes(fx.prepared.profile!) });

/** The answer's rows, each as its values joined by " | " in the projection's order. */
async function rows(sparql: string): Promise<string[]> {
  const r = await fx.kg.query(sparql);
  return r.kind === "SELECT" ? r.results.bindings.map((b) => r.head.vars.map((v) => b[v]?.value ?? "").join(" | ")) : [];
}

describe("two columns of a class's rows", () => {
  it("asks for the name beside the sort key of the top row, and for the id and name of the top row", async () => {
    const own = examples("pair-top").find((e) => e.frame.key === "ferry name" && e.frame.q === "tonnage" && e.frame.dir === "high");
    expect(own?.question).toBe("What are the ferry name and tonnage of the ferry with the highest tonnage?");
    expect(own?.template).toBe(template("SELECT ?n ?t WHERE { ?x fy:ferry_name ?n ; fy:tonnage ?t } ORDER BY DESC(?t) LIMIT 1"));
    expect(await rows(own?.sparql ?? "")).toEqual(["Morwen Isle | 8100"]);

    const low = examples("pair-top").find((e) => e.frame.key === "ferry name" && e.frame.dir === "low");
    expect(await rows(low?.sparql ?? "")).toEqual(["Cobble Wren | 2950"]);

    const id = examples("pair-top").find((e) => e.frame.key === "ferry id");
    expect(id?.question).toBe("What are the ferry id and ferry name of the ferry with the highest tonnage?");
    expect(id?.template).toBe(template("SELECT ?i ?n WHERE { ?x fy:ferry_id ?i ; fy:ferry_name ?n ; fy:tonnage ?t } ORDER BY DESC(?t) LIMIT 1"));
    expect(await rows(id?.sparql ?? "")).toEqual(["2 | Morwen Isle"]);
  });

  it("asks for the name and another column sorted by the name, or by a measure highest first", async () => {
    const byName = examples("pair-sorted").find((e) => e.frame.p === "ferry name");
    expect(byName?.question).toBe("List the ferry name and home port of all ferries sorted by ferry name.");
    expect(byName?.template).toBe(template("SELECT ?n ?h WHERE { ?x fy:ferry_name ?n ; fy:home_port ?h } ORDER BY ASC(?n)"));
    expect(await rows(byName?.sparql ?? "")).toEqual([...FERRIES].sort((a, b) => a[1].localeCompare(b[1])).map((f) => `${f[1]} | ${f[2]}`));

    const byMeasure = examples("pair-sorted").find((e) => e.frame.p === "tonnage" && e.frame.dir === "high");
    expect(byMeasure?.question).toBe("List the ferry name and home port of all ferries sorted by tonnage, highest first.");
    expect(byMeasure?.template).toBe(template("SELECT ?n ?h WHERE { ?x fy:ferry_name ?n ; fy:home_port ?h ; fy:tonnage ?t } ORDER BY DESC(?t)"));
    expect(await rows(byMeasure?.sparql ?? "")).toEqual([...FERRIES].sort((a, b) => b[3] - a[3]).map((f) => `${f[1]} | ${f[2]}`));
  });

  it("asks for two sibling columns of every row (two dates whose names share words, the earlier first)", async () => {
    const e = examples("pair-list")[0];
    expect(e?.question).toBe("List the service start date and service end date of all ferries.");
    expect(e?.template).toBe(template("SELECT ?s ?e WHERE { ?x fy:service_start_date ?s ; fy:service_end_date ?e }"));
    expect((await rows(e?.sparql ?? "")).sort()).toEqual(FERRIES.map((f) => `${f[4]} | ${f[5]}`).sort());
  });

  it("asks for two columns of the rows with a value of a repeating column", async () => {
    const e = examples("pair-with-value").find((x) => x.frame.key === "ferry name");
    const port = e?.frame.value ?? "";
    expect(e?.question).toBe(`What are the ferry name and tonnage of the ferries whose home port is ${port}?`);
    expect(e?.template).toBe(template(`SELECT ?n ?t WHERE { ?x fy:home_port "${port}" ; fy:ferry_name ?n ; fy:tonnage ?t }`));
    const expected = FERRIES.filter((f) => f[2] === port).map((f) => `${f[1]} | ${f[3]}`);
    expect(expected.length).toBeGreaterThan(1);
    expect((await rows(e?.sparql ?? "")).sort()).toEqual(expected.sort());
  });
});

describe("siblingPairs", () => {
  const seed = (name: string, role: "text" | "number" | "date"): Seed => ({ count: 3, predicate: { iri: `http://example.org/${name.replace(/ /g, "_")}`, name, role } as Seed["predicate"], pairs: [], distinctShare: 1 });
  it("pairs columns whose names share a word before columns of one role, and leaves the class's own word out", () => {
    const cols = [seed("order placed date", "date"), seed("order weight", "number"), seed("order shipped date", "date"), seed("order volume", "number"), seed("order note", "text")];
    const names = siblingPairs(cols, new Set(), "order").map(([a, b]) => `${a.predicate.name} / ${b.predicate.name}`);
    expect(names).toEqual(["order placed date / order shipped date", "order weight / order volume"]);
  });
});
