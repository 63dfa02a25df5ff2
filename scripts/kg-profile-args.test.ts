// Unit tests for the shared --profile / --label-predicates / --lang / --label-search parsing of the CLIs.
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { DEFAULT_PROFILE, NS, PROFILE_PRESETS, resolveProfile } from "@/lib/kg/profile";
import { describeProfile, expandName, kgSpecFromArgs, profileFromArgs } from "./kg-profile-args";

/** In-memory files for --profile <file>. */
function files(map: Record<string, string>) {
  return { fileExists: (p: string) => p in map, readFile: (p: string) => map[p] };
}

function errorOf(fn: () => unknown): { code: string; message: string } {
  try {
    fn();
  } catch (e) {
    if (isAppError(e)) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error("expected an error");
}

describe("profileFromArgs", () => {
  it("returns no profile when no flag is given (openKg's defaults and URL presets apply unchanged)", () => {
    expect(profileFromArgs({})).toBeUndefined();
    expect(kgSpecFromArgs("https://dbpedia.org/sparql", {})).toEqual({ kind: "endpoint", url: "https://dbpedia.org/sparql" });
  });

  it("takes --entailment for RDF files and refuses it for endpoints or a bad value", () => {
    expect(kgSpecFromArgs("a.trig,b.ttl", { entailment: "rdfs" })).toEqual({ kind: "files", paths: ["a.trig", "b.ttl"], entailment: "rdfs" });
    expect(() => kgSpecFromArgs("https://dbpedia.org/sparql", { entailment: "rdfs" })).toThrow(/endpoint keeps its own/);
    expect(() => kgSpecFromArgs("a.ttl", { entailment: "owl" })).toThrow(/none or rdfs/);
  });

  it("takes a preset by name", () => {
    expect(profileFromArgs({ profile: "dbpedia" })).toEqual(PROFILE_PRESETS.dbpedia.profile);
  });

  it("reads a JSON file and lets the shorthands override its fields", () => {
    const fs = files({ "p.json": JSON.stringify({ labelPredicates: ["http://ex.org/name"], language: "de", prefixes: { ex: "http://ex.org/" } }) });
    expect(profileFromArgs({ profile: "p.json" }, {}, fs)).toEqual({ labelPredicates: ["http://ex.org/name"], language: "de", prefixes: { ex: "http://ex.org/" } });
    const over = profileFromArgs({ profile: "p.json", "label-predicates": "ex:title, rdfs:label", lang: "pt-BR", "label-search": "contains" }, {}, fs);
    expect(over).toEqual({ labelPredicates: ["http://ex.org/title", `${NS.rdfs}label`], language: "pt-BR", prefixes: { ex: "http://ex.org/" }, labelSearch: "contains" });
  });

  it("expands prefixed names through the endpoint preset's prefixes", () => {
    const spec = kgSpecFromArgs("https://qlever.cs.uni-freiburg.de/api/dblp", { "label-predicates": "dblp:title" });
    expect(spec).toEqual({ kind: "endpoint", url: "https://qlever.cs.uni-freiburg.de/api/dblp", profile: { labelPredicates: ["https://dblp.org/rdf/schema#title"] } });
  });

  it("attaches the profile to file and sample specs", () => {
    expect(kgSpecFromArgs("a.ttl,b.nt", { "label-search": "contains" })).toEqual({ kind: "files", paths: ["a.ttl", "b.nt"], profile: { labelSearch: "contains" } });
    expect(kgSpecFromArgs("sample", { lang: "fr" })).toEqual({ kind: "sample", profile: { language: "fr" } });
  });

  it("names the bad field of a JSON profile (wrong value, unknown key, wrong type) and the file", () => {
    const fs = files({
      "iri.json": JSON.stringify({ labelPredicates: ["not an iri"] }),
      "typo.json": JSON.stringify({ labelPredicate: ["http://ex.org/name"] }),
      "type.json": JSON.stringify({ labelSearch: "fulltext" }),
      "broken.json": "{ labelPredicates: ",
      "list.json": "[]",
    });
    expect(errorOf(() => profileFromArgs({ profile: "iri.json" }, {}, fs))).toEqual({ code: "bad_request", message: expect.stringMatching(/^Invalid profile file iri\.json: labelPredicates\.0 must be an absolute IRI/) });
    expect(errorOf(() => profileFromArgs({ profile: "typo.json" }, {}, fs)).message).toMatch(/typo\.json: labelPredicate is not a profile field \(known: labelPredicates, /);
    expect(errorOf(() => profileFromArgs({ profile: "type.json" }, {}, fs)).message).toMatch(/type\.json: labelSearch /);
    expect(errorOf(() => profileFromArgs({ profile: "broken.json" }, {}, fs)).message).toMatch(/broken\.json is not valid JSON/);
    expect(errorOf(() => profileFromArgs({ profile: "list.json" }, {}, fs)).code).toBe("bad_request");
  });

  it("refuses an unknown preset or missing file, an unknown prefix, a bad language and an unknown label search, naming the flag", () => {
    expect(errorOf(() => profileFromArgs({ profile: "nope" }, {}, files({}))).message).toMatch(/--profile "nope" is neither a preset \(wikidata, dbpedia/);
    expect(errorOf(() => profileFromArgs({ "label-predicates": "rdsf:label" })).message).toMatch(/"rdsf:label" is neither an absolute IRI nor a prefixed name/);
    expect(errorOf(() => profileFromArgs({ "label-predicates": " , " })).message).toMatch(/at least one/);
    expect(errorOf(() => profileFromArgs({ lang: "not a tag" })).message).toMatch(/^Invalid profile flags: --lang /);
    expect(errorOf(() => profileFromArgs({ "label-search": "fulltext" })).message).toMatch(/--label-search must be one of index, contains, virtuoso, qlever, wikidata/);
  });
});

describe("expandName", () => {
  const prefixes = { ...NS, "": "http://default.org/" };
  it("expands prefixed names and keeps full IRIs", () => {
    expect(expandName("skos:prefLabel", prefixes)).toBe(`${NS.skos}prefLabel`);
    expect(expandName(":name", prefixes)).toBe("http://default.org/name");
    expect(expandName("<http://ex.org/ab>", prefixes)).toBe("http://ex.org/ab");
    expect(expandName("https://ex.org/name", prefixes)).toBe("https://ex.org/name");
    expect(expandName("urn:x:label", prefixes)).toBe("urn:x:label");
  });
});

describe("describeProfile", () => {
  it("shows the adapter, language and predicates compacted with the profile's prefixes", () => {
    const text = describeProfile(resolveProfile({ labelPredicates: ["http://ex.org/v/heading"], prefixes: { v: "http://ex.org/v/" }, labelSearch: "index" }));
    expect(text).toBe(
      ["profile: label search index · language en", "  labels: v:heading", "  types: rdf:type", `  descriptions: rdfs:comment, schema:description, dcterms:description`].join("\n"),
    );
    expect(describeProfile(DEFAULT_PROFILE)).toMatch(/labels: rdfs:label, skos:prefLabel/);
  });
});
