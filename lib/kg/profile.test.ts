import { describe, expect, it } from "vitest";
import { DEFAULT_PROFILE, NS, PROFILE_PRESETS, compactIri, kgProfileSchema, localName, presetForUrl, resolveProfile } from "./profile";
import { isAppError } from "@/lib/errors";

describe("DEFAULT_PROFILE", () => {
  it("lists label predicates in preference order and validates", () => {
    expect(DEFAULT_PROFILE.labelPredicates).toEqual([
      "http://www.w3.org/2000/01/rdf-schema#label",
      "http://www.w3.org/2004/02/skos/core#prefLabel",
      "http://schema.org/name",
      "http://xmlns.com/foaf/0.1/name",
      "http://purl.org/dc/terms/title",
      "http://www.w3.org/2004/02/skos/core#altLabel",
    ]);
    expect(DEFAULT_PROFILE.language).toBe("en");
    expect(DEFAULT_PROFILE.labelSearch).toBe("contains");
    expect(DEFAULT_PROFILE.typePredicates).toEqual([`${NS.rdf}type`]);
    expect(Object.keys(DEFAULT_PROFILE.prefixes)).toEqual(["rdf", "rdfs", "xsd", "owl", "skos", "schema", "foaf", "dcterms", "dbo", "dbr", "wd", "wdt"]);
    expect(kgProfileSchema.safeParse(DEFAULT_PROFILE).success).toBe(true);
  });
});

describe("resolveProfile", () => {
  it("returns the defaults for nothing", () => {
    expect(resolveProfile()).toEqual(DEFAULT_PROFILE);
  });
  it("replaces lists and merges prefixes", () => {
    const p = resolveProfile({ labelPredicates: ["http://ex.org/name"], prefixes: { ex: "http://ex.org/" }, language: "de" });
    expect(p.labelPredicates).toEqual(["http://ex.org/name"]);
    expect(p.prefixes.ex).toBe("http://ex.org/");
    expect(p.prefixes.rdfs).toBe(NS.rdfs);
    expect(p.language).toBe("de");
  });
  it.each([
    [{ labelPredicates: ["not an iri"] }, "labelPredicates"],
    [{ language: "en}" }, "language"],
    [{ labelSearch: "wikidata" }, "entitySearchUrl"],
    [{ entitySearchUrl: "ftp://x.org/api" }, "entitySearchUrl"],
    [{ labelSearch: "google" }, "labelSearch"],
  ])("refuses %j with a message naming the field", (partial, field) => {
    try {
      resolveProfile(partial as never);
      expect.unreachable();
    } catch (e) {
      expect(isAppError(e, "bad_request")).toBe(true);
      expect((e as Error).message).toContain(field);
    }
  });
  it("builds every preset into a valid profile", () => {
    for (const preset of Object.values(PROFILE_PRESETS)) expect(() => resolveProfile(preset.profile)).not.toThrow();
  });
});

describe("presetForUrl", () => {
  it.each([
    ["https://dbpedia.org/sparql", "dbpedia", "virtuoso"],
    ["https://query.wikidata.org/sparql", "wikidata", "wikidata"],
    ["https://qlever.cs.uni-freiburg.de/api/wikidata", "wikidata", "wikidata"],
    ["https://qlever.cs.uni-freiburg.de/api/dblp", "dblp", "qlever"],
    ["https://sparql.dblp.org/sparql", "dblp", "qlever"],
    ["https://qlever.cs.uni-freiburg.de/api/osm-planet", "qlever", "qlever"],
    ["https://yago-knowledge.org/sparql/query", "yago", "qlever"],
  ])("%s → %s", (url, name, labelSearch) => {
    const preset = presetForUrl(url);
    expect(preset?.name).toBe(name);
    expect(resolveProfile(preset?.profile).labelSearch).toBe(labelSearch);
  });
  it("wikidata uses the wbsearchentities API, P31 types and schema:description", () => {
    const p = resolveProfile(presetForUrl("https://query.wikidata.org/sparql")?.profile);
    expect(p.entitySearchUrl).toBe("https://www.wikidata.org/w/api.php");
    expect(p.typePredicates).toEqual(["http://www.wikidata.org/prop/direct/P31"]);
    expect(p.descriptionPredicates).toEqual(["http://schema.org/description"]);
  });
  it("has none for an unknown endpoint", () => {
    expect(presetForUrl("http://127.0.0.1:3030/ds/sparql")).toBeUndefined();
  });
});

describe("compactIri / localName", () => {
  const prefixes = { ...DEFAULT_PROFILE.prefixes, dbp: "http://dbpedia.org/property/" };
  it.each([
    ["http://www.w3.org/2000/01/rdf-schema#label", "rdfs:label"],
    ["http://dbpedia.org/resource/Berlin", "dbr:Berlin"],
    ["http://www.wikidata.org/prop/direct/P31", "wdt:P31"],
    ["http://www.wikidata.org/entity/Q42", "wd:Q42"],
    ["http://dbpedia.org/property/name", "dbp:name"],
    // local parts that are not valid prefixed names stay full IRIs
    ["http://dbpedia.org/resource/Harry_Potter_(film)", "<http://dbpedia.org/resource/Harry_Potter_(film)>"],
    ["http://dbpedia.org/resource/a/b", "<http://dbpedia.org/resource/a/b>"],
    ["http://unknown.org/x", "<http://unknown.org/x>"],
  ])("compactIri(%s) = %s", (value, expected) => {
    expect(compactIri(value, prefixes)).toBe(expected);
  });
  it.each([
    ["http://dbpedia.org/resource/Caf%C3%A9_de_Flore", "Café_de_Flore"],
    ["http://www.w3.org/2000/01/rdf-schema#label", "label"],
    ["http://example.org/things/", "things"],
    ["urn:isbn:0451450523", "0451450523"],
    ["http://example.org/bad%ZZ", "bad%ZZ"],
  ])("localName(%s) = %s", (value, expected) => {
    expect(localName(value)).toBe(expected);
  });
});
