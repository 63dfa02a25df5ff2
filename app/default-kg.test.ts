// The home page's description of KG_DEFAULT: sample by default, file names only, endpoint URLs without secrets.
import { describe, expect, it } from "vitest";
import { describeDefaultKg } from "./default-kg";

describe("describeDefaultKg", () => {
  it("uses the sample KG when unset, empty or 'sample'", () => {
    for (const v of [undefined, "", "  ", "sample"]) expect(describeDefaultKg(v).kind).toBe("sample");
  });

  it("shows only file names for file paths", () => {
    expect(describeDefaultKg("/data/private/a.ttl, ./b.nt")).toEqual({ kind: "files", label: "RDF files: a.ttl, b.nt" });
  });

  it("never shows credentials or query strings of an endpoint URL", () => {
    const info = describeDefaultKg("https://user:s3cret@example.org/sparql?key=abc");
    expect(info).toEqual({ kind: "endpoint", label: "SPARQL endpoint https://example.org/sparql" });
  });
});
