import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE } from "@/lib/kg/profile";
import { fixtureStore } from "@/test/fixtures/kg/lexicon/store";
import { buildLexicon } from "./build";
import { parseReadOnly } from "@/lib/kg/sparql-guard";

const CK = "http://example.org/clockworks#";
const LS = "http://example.org/lightships/";
const AP = "http://example.org/apiary/";

async function lexiconOf(...files: string[]) {
  const fx = fixtureStore(...files);
  const built = await buildLexicon(fx.select, DEFAULT_PROFILE);
  return { ...built, queries: fx.queries };
}

describe("the lexicon of a KG without labels (CamelCase local names)", () => {
  it("names entities, classes and properties by their local names, whatever the case or number", async () => {
    const { lexicon, stats } = await lexiconOf("camel-case.ttl");
    const top = (text: string, kinds?: ("entity" | "class" | "property")[]) => lexicon.search(text, { limit: 3, kinds })[0];
    expect(top("northgate clock tower")).toMatchObject({ iri: `${CK}NorthgateClockTower`, kind: "entity", score: 1, matched: { text: "Northgate Clock Tower", source: { kind: "local-name" } } });
    expect(top("Martha Quill")?.iri).toBe(`${CK}MarthaQuill`);
    expect(top("Otto Fenwick")?.iri).toBe(`${CK}otto_fenwick`);
    expect(top("café pendulum")?.iri).toBe(`${CK}Caf%C3%A9Pendulum`);
    expect(top("cafe pendulum")?.iri).toBe(`${CK}Caf%C3%A9Pendulum`);
    // plural mention, singular class
    expect(top("clock towers", ["class"])).toMatchObject({ iri: `${CK}ClockTower`, kind: "class" });
    expect(top("clockmakers", ["class"])?.iri).toBe(`${CK}Clockmaker`);
    // inflected relation phrase
    expect(top("tooth counts", ["property"])?.iri).toBe(`${CK}toothCount`);
    expect(top("building", ["property"])).toBeUndefined();
    expect(top("built by", ["property"])?.iri).toBe(`${CK}builtBy`);
    expect(stats.classes).toBeGreaterThanOrEqual(4);
    expect(stats.truncated).toBe(false);
  });

  it("gives an urn:uuid no name, and finds nothing for words the KG does not have", async () => {
    const { lexicon } = await lexiconOf("camel-case.ttl");
    expect(lexicon.displayName("urn:uuid:6f1c2a9e-5b7d-4e0a-9c3b-2d8e1f4a7b60")).toBeUndefined();
    expect(lexicon.displayName(`${CK}ironGear12`)).toBe("iron Gear 12");
    expect(lexicon.search("submarine", { limit: 5 })).toEqual([]);
  });

  it("runs only bounded read-only SELECTs", async () => {
    const { queries } = await lexiconOf("camel-case.ttl");
    for (const q of queries) {
      expect(parseReadOnly(q).kind).toBe("SELECT");
      expect(q).toMatch(/LIMIT \d+/);
    }
  });
});

describe("the lexicon of a KG with names in a custom predicate", () => {
  it("discovers the name predicate from the data and says which predicate a match came from", async () => {
    const { lexicon, stats } = await lexiconOf("custom-names.ttl");
    const roles = Object.fromEntries(stats.namePredicates.map((p) => [p.predicate, p.role]));
    expect(roles[`${LS}designation`]).toBe("name");
    expect(roles[`${LS}serialCode`]).toBe("id");
    // repeated categories and long prose are not names
    expect(roles[`${LS}hue`]).toBeUndefined();
    expect(roles[`${LS}logbookNote`]).toBeUndefined();
    const hit = lexicon.search("sable reef light", { limit: 3 })[0];
    expect(hit).toMatchObject({ iri: "urn:uuid:1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", score: 1, matched: { text: "Sable Reef Light", source: { kind: "predicate", predicate: `${LS}designation`, role: "name" } } });
    const byCode = lexicon.search("LS-6002", { limit: 3 })[0];
    expect(byCode).toMatchObject({ iri: "urn:uuid:2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a", display: "Heron Shoal Lantern", matched: { source: { role: "id" } } });
    expect(lexicon.displayName("urn:uuid:5a6b7c8d-9e0f-4a1b-8c2d-3e4f5a6b7c8d")).toBe("Outer Roads");
  });

  it("finds a thing by an id written shortened: the start of its IRI's last segment or of one of its names", async () => {
    const { lexicon } = await lexiconOf("custom-names.ttl");
    expect(lexicon.searchIdPrefix("1C2D3E4F", 5)).toEqual([{ iri: "urn:uuid:1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", matched: "iri" }]);
    expect(lexicon.searchIdPrefix("LS-60", 5)).toEqual([{ iri: "urn:uuid:2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a", matched: expect.objectContaining({ text: "LS-6002" }) }]);
    expect(lexicon.searchIdPrefix("LS-", 1)).toHaveLength(1);
    expect(lexicon.searchIdPrefix("zz99", 5)).toEqual([]);
  });
});

describe("ids quoted by their start", () => {
  it("finds an opaque IRI by the first part of its id, as people quote hashes, and not by a part inside it", async () => {
    const { lexicon } = await lexiconOf("custom-names.ttl");
    // "1c2d3e4f" starts urn:uuid:1c2d3e4f-5a6b-…: the IRI's own id (its local part), shown by its name
    expect(lexicon.search("1c2d3e4f", { limit: 5 })[0]).toMatchObject({ iri: "urn:uuid:1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f", display: "Sable Reef Light", matched: { text: "1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f" } });
    expect(lexicon.search("1c2d3e4f", { limit: 5 })[0].score).toBeGreaterThanOrEqual(2 / 3);
    // the start must end where the id breaks, and a short word is no id
    expect(lexicon.search("1c2d3e", { limit: 5 }).map((h) => h.iri)).not.toContain("urn:uuid:1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f");
    expect(lexicon.search("5a6b", { limit: 5 }).map((h) => h.iri)).toEqual([]);
  });
});

describe("the lexicon of a KG in named graphs", () => {
  it("reads names and terms from every graph", async () => {
    const { lexicon } = await lexiconOf("named-graphs.trig");
    expect(lexicon.search("wren haldane", { limit: 1 })[0]).toMatchObject({ iri: `${AP}keeper-3`, matched: { source: { kind: "predicate", predicate: `${AP}callName` } } });
    expect(lexicon.search("beehives", { limit: 1, kinds: ["class"] })[0]?.iri).toBe(`${AP}Beehive`);
    expect(lexicon.search("kept by", { limit: 1, kinds: ["property"] })[0]?.iri).toBe(`${AP}keptBy`);
  });
});

describe("the lexicon of an ontology with labels in several languages", () => {
  it("matches a label in any language and shows the preferred one", async () => {
    const { lexicon } = await lexiconOf("hierarchy.ttl");
    const hit = lexicon.search("OBSTBAUM", { limit: 1, kinds: ["class"] })[0];
    expect(hit).toMatchObject({ iri: "http://example.org/orchard#FruitTree", display: "fruit tree", matched: { text: "Obstbaum", lang: "de" } });
    expect(lexicon.search("pear trees", { limit: 1, kinds: ["class"] })[0]?.iri).toBe("http://example.org/orchard#PearTree");
  });
});
