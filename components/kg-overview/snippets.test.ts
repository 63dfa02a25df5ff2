// What overview items put into the SPARQL editor: queries with the KG's prefixes, declaring only the ones they use.
import { describe, expect, it } from "vitest";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { classQuery, entityQuery, namespaceQuery, predicateQuery } from "./snippets";

const PREFIXES = { ap: "http://example.org/apiaries/", xsd: "http://www.w3.org/2001/XMLSchema#" };

describe("overview SPARQL snippets", () => {
  it("lists a class's instances with its prefix declared", () => {
    const q = classQuery("http://example.org/apiaries/Hive", PREFIXES);
    expect(q).toBe("PREFIX ap: <http://example.org/apiaries/>\nSELECT ?instance WHERE {\n  ?instance a ap:Hive .\n}\nLIMIT 50");
  });

  it("restricts a predicate to a class's instances when given one, and writes unknown namespaces in full", () => {
    const q = predicateQuery("http://other.org/v#rate", PREFIXES, "http://example.org/apiaries/Hive");
    expect(q).toContain("?subject a ap:Hive .");
    expect(q).toContain("?subject <http://other.org/v#rate> ?value .");
    expect(q).not.toContain("xsd:");
  });

  it("writes queries the read-only guard parses, quoting a namespace safely", () => {
    for (const q of [
      classQuery("http://example.org/apiaries/Hive", PREFIXES),
      predicateQuery("http://example.org/apiaries/kept_by", PREFIXES),
      entityQuery("urn:uuid:3f2a9c1e-7b4d-4e8a-9f10-5c6d7e8f9a0b", PREFIXES),
      namespaceQuery('http://example.org/a"b\\c/'),
    ]) {
      expect(() => parseReadOnly(q)).not.toThrow();
    }
  });
});

describe("IRIs in a text", () => {
  it("are written with the KG's prefixes where one fits", async () => {
    const { compactInText } = await import("./names");
    const names = { name: (i: string) => i, compact: (i: string) => i, prefixes: PREFIXES };
    expect(compactInText("http://www.w3.org/2001/XMLSchema#date e.g. 1987-09-07; http://other.org/x#y", names)).toBe("xsd:date e.g. 1987-09-07; http://other.org/x#y");
  });
});
