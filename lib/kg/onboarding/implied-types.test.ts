// People leave out a type triple the predicate already implies ("things with lamp kind solar", not "lighthouses with
// …"): on a KG where every subject of a predicate is of one class, the template treats `?x a C` beside `?x p …` as
// implied, so the example a person's untyped query asks for is found in the pool.
import { describe, expect, it } from "vitest";
import { usePreparedFixture } from "@/test/helpers/prepared-fixture";
import { impliedTypes, queryTemplate } from "./template";

const P = "PREFIX lv: <http://example.org/lighthouses/vocab#> PREFIX lh: <http://example.org/lighthouses/> ";
const fx = usePreparedFixture("test/fixtures/kg/onboarding/lighthouses.ttl");

describe("a type triple the predicate implies", () => {
  it("is read from the profile: a predicate of one class only implies it; one several classes use does not", () => {
    const implied = impliedTypes(fx.prepared.profile!);
    expect(implied.get("http://example.org/lighthouses/vocab#lampKind")).toBe("http://example.org/lighthouses/vocab#Lighthouse");
    expect(implied.has("http://example.org/lighthouses/vocab#title")).toBe(false);
  });

  it("is left out of templates, so people's untyped lookups and counts are found in the pool", () => {
    const implied = impliedTypes(fx.prepared.profile!);
    const pool = new Set(fx.prepared.examples.map((e) => e.template));
    const t = (q: string) => queryTemplate(P + q, { impliedTypes: implied });
    expect(pool.has(t(`SELECT ?x WHERE { ?x lv:lampKind "solar" }`) ?? "")).toBe(true);
    expect(pool.has(t(`SELECT (COUNT(?x) AS ?n) WHERE { ?x lv:onCoast lh:coast-amber }`) ?? "")).toBe(true);
    expect(t(`SELECT ?x WHERE { ?x a lv:Lighthouse . ?x lv:lampKind "oil" }`)).toBe(t(`SELECT ?x WHERE { ?x lv:lampKind "solar" }`));
  });

  it("is kept where it tells things apart: a predicate several classes share, or another class", () => {
    const implied = impliedTypes(fx.prepared.profile!);
    const t = (q: string) => queryTemplate(P + q, { impliedTypes: implied });
    expect(t(`SELECT ?x WHERE { ?x a lv:Keeper . ?x lv:title "Ines Varga" }`)).not.toBe(t(`SELECT ?x WHERE { ?x lv:title "Ines Varga" }`));
    expect(t(`SELECT ?x WHERE { ?x a lv:Coast . ?x lv:lampKind "oil" }`)).toContain("Coast");
    // without a profile nothing is implied
    expect(queryTemplate(`${P} SELECT ?x WHERE { ?x a lv:Lighthouse . ?x lv:lampKind "oil" }`)).toContain("#type");
  });
});
