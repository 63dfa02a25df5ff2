// Numeric comparisons across a link on a fixture KG of harbours (vessels with a home port of some depth, voyages of a
// cargo weight with a captain, visits linking vessels and ports, licences of captains): the pool holds the query people
// write when the measure compared sits on the other side of a link — the vessels whose port is deeper than N, the
// captains with a voyage heavier than N, the ports visited by a vessel of more than N tonnes — and the id and name of
// the captains with more than one licence, each in the form people write it (no type triples), with a question in the
// KG's own names, answering from the KG; numbers that name a row are not compared.
import { describe, expect, it } from "vitest";
import { answersOf, exampleLike as exampleOf, usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { codeLike } from "./generators-link-compare";
import type { Seed } from "./seeds";

const P = "PREFIX hb: <http://example.org/harbours/> ";
const fx = usePreparedFixture("test/fixtures/kg/onboarding/harbours.ttl");

const exampleLike = (query: string) => exampleOf(fx, P + query);
const answers = (sparql: string) => answersOf(fx, sparql);

describe("numeric comparisons across a link", () => {
  it("asks for a column of the rows whose linked row's measure is above a threshold", async () => {
    const e = exampleLike(`SELECT ?n WHERE { ?v hb:vessel_name ?n ; hb:ref_home_port ?p . ?p hb:depth ?d . FILTER(?d > 20) }`);
    expect(e?.question).toBe("What is the vessel name of each vessel whose port has a depth greater than 18?");
    expect(await answers(e?.sparql ?? "")).toEqual(["Ardent", "Halcyon", "Pellucid", "Skerry"]);
  });

  it("asks for a column of the linked rows by a measure of the rows that link them", async () => {
    const e = exampleLike(`SELECT ?n WHERE { ?v hb:cargo_weight ?w ; hb:ref_captain ?c . ?c hb:captain_name ?n . FILTER(?w > 300) }`);
    expect(e?.question).toBe("What is the captain name of the captains that have a voyage with a cargo weight greater than 210?");
    expect(await answers(e?.sparql ?? "")).toEqual(["Ines Harrow", "Tobin Vale"]);
  });

  it("asks through a row of keys and links: one end's column by the other end's measure", async () => {
    const e = exampleLike(`SELECT ?n WHERE { ?x hb:ref_port ?p ; hb:ref_vessel ?v . ?p hb:port_name ?n . ?v hb:tonnage ?t . FILTER(?t > 5000) }`);
    expect(e?.question).toBe("What is the port name of the ports that have a visit with a vessel whose tonnage is greater than 2200?");
    expect(await answers(e?.sparql ?? "")).toEqual(["Brackwater Sound", "Kelsby Haven"]);
  });

  it("asks for two columns naming the linked rows that more than one row refers to", async () => {
    // licences and voyages both refer to captains: the type tells the licences apart
    const e = exampleLike(`SELECT ?i ?n WHERE { ?l a hb:licence ; hb:ref_captain ?c . ?c hb:captain_id ?i ; hb:captain_name ?n } GROUP BY ?i ?n HAVING (COUNT(*) > 1)`);
    expect(e?.question).toBe("What are the captain id and captain name of the captains with more than 1 licence?");
    expect(await answers(e?.sparql ?? "")).toEqual(["1, Ines Harrow", "3, Maud Keel"]);
  });
});

describe("codeLike", () => {
  const seed = (values: string[]): Seed => {
    const pairs = values.map((v, i) => ({ s: `r${i}`, o: { type: "literal" as const, value: v } }));
    return { count: values.length, predicate: { iri: "x:p", name: "p", role: "number" } as Seed["predicate"], pairs, distinctShare: new Set(values).size / values.length };
  };

  it("tells numbers that name a row (all different, all of one length) from measures compared by size", () => {
    expect(codeLike(seed(["65465421", "68421879", "68476213", "36546321"]))).toBe(true);
    expect(codeLike(seed(["81300", "143500", "9800", "52000"]))).toBe(false);
    expect(codeLike(seed(["12000", "12000", "34000"]))).toBe(false);
    expect(codeLike(seed(["3", "7", "12"]))).toBe(false);
  });
});
