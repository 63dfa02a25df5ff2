// Group-and-count questions on a fixture KG of guilds and artisans (each artisan row holds its guild's key beside the
// link to the guild): counts per value of that key column, the key with the most and the fewest rows, the keys of at
// least 2 rows, how many different keys and names; the key and name of the guild with the most artisans (grouped by
// both); the number of artisans beside their total wage per craft — each in the form people write it (no type
// triples), answering from the KG.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { impliedTypes, queryTemplate } from "./template";

const P = "PREFIX gg: <http://example.org/guilds/guild#> PREFIX ga: <http://example.org/guilds/artisan#> ";
const fx = usePreparedFixture("test/fixtures/kg/onboarding/guilds.ttl");

const examples = (kind: string) => fx.prepared.examples.filter((e) => e.frame.kind === kind && e.frame.cls === "artisan");
const template = (query: string) => queryTemplate(P + query, { impliedTypes: impliedTypes(fx.prepared.profile!) });

/** The answer's rows, each as its values joined by a space (in the variables' order), sorted unless `ordered`. */
async function rows(sparql: string, ordered = false): Promise<string[]> {
  const r = await fx.kg.query(sparql);
  if (r.kind !== "SELECT") return [];
  const out = r.results.bindings.map((b) => r.head.vars.map((v) => b[v]?.value ?? "").join(" "));
  return ordered ? out : out.sort();
}

describe("group-and-count questions over a column that refers to another row by its key", () => {
  it("counts the rows per key value, finds the key with the most and the fewest, and the keys of at least 2 rows", async () => {
    const [count] = examples("key-count-per-group");
    expect(count?.question).toBe("How many artisans are there for each guild id?");
    expect(count?.template).toBe(template("SELECT (COUNT(*) AS ?n) ?g WHERE { ?a ga:guild_id ?g } GROUP BY ?g"));
    expect(await rows(count?.sparql ?? "")).toEqual(["1 4", "2 3", "3 1"]);

    const [most, fewest] = examples("key-group-most");
    expect(most?.question).toBe("Which guild id has the most artisans?");
    expect(most?.template).toBe(template("SELECT (COUNT(*) AS ?n) ?g WHERE { ?a ga:guild_id ?g } GROUP BY ?g ORDER BY DESC(?n) LIMIT 1"));
    expect(await rows(most?.sparql ?? "")).toEqual(["1 4"]);
    expect(fewest?.question).toBe("Which guild id has the fewest artisans?");
    expect(await rows(fewest?.sparql ?? "")).toEqual(["3 1"]);

    const having = examples("key-group-having").find((e) => e.frame.dir === "low");
    expect(having?.question).toBe("Which guild id values are shared by at least 2 artisans?");
    expect(having?.template).toBe(template("SELECT ?g WHERE { ?a ga:guild_id ?g } GROUP BY ?g HAVING (COUNT(*) >= 2)"));
    expect(await rows(having?.sparql ?? "")).toEqual(["1", "2"]);
  });

  it("counts the different key values", async () => {
    const [distinct] = examples("key-count-distinct");
    expect(distinct?.question).toBe("How many different guild id values do the artisans have?");
    expect(distinct?.template).toBe(template("SELECT (COUNT(DISTINCT ?g) AS ?n) WHERE { ?a ga:guild_id ?g }"));
    expect(await rows(distinct?.sparql ?? "")).toEqual(["3"]);
  });

  it("counts the different names, which the base count leaves out", async () => {
    const names = fx.prepared.examples.find((e) => e.frame.kind === "count-distinct" && e.frame.p === "artisan name");
    expect(names?.question).toBe("How many different artisan name values do the artisans have?");
    expect(await rows(names?.sparql ?? "")).toEqual(["8"]);
  });

  it("groups by the key of another row, never by the row's own key (each row its own group)", () => {
    const keyed = fx.prepared.examples.filter((e) => e.frame.kind.startsWith("key-"));
    expect(new Set(keyed.map((e) => e.frame.p))).toEqual(new Set(["guild id"]));
  });
});

describe("group-and-count questions across a link, grouped by two columns of the linked row", () => {
  it("asks for the key and name of the linked row with the most rows referring to it", async () => {
    const [most] = examples("join-pair-most");
    expect(most?.question).toBe("What are the guild id and guild name of the guild with the most artisans?");
    // as people write it: the key first, the name second, grouped in that order, the count projected
    expect(most?.template).toBe(template("SELECT ?i (COUNT(*) AS ?n) ?m WHERE { ?a ga:ref_guild ?g . ?g gg:guild_id ?i . ?g gg:guild_name ?m } GROUP BY ?i ?m ORDER BY DESC(?n) LIMIT 1"));
    expect(await rows(most?.sparql ?? "")).toEqual(["1 Amberwick Weavers 4"]);
  });
});

describe("a count beside a total per category", () => {
  it("asks for the number of rows and a measure's total for each value of a category", async () => {
    const [e] = examples("count-aggregate-per-group");
    expect(e?.question).toBe("How many artisans are there for each craft, and what is their total wage?");
    expect(e?.template).toBe(template("SELECT (COUNT(*) AS ?n) (SUM(?w) AS ?s) ?c WHERE { ?a ga:craft ?c . ?a ga:wage ?w } GROUP BY ?c"));
    expect(await rows(e?.sparql ?? "")).toEqual(["potter 3 74", "smith 1 41", "weaver 4 123"]);
  });
});
