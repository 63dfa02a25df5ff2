// The W3C SPARQL 1.0/1.1 syntax tests against the read-only guard and our serialisation (docs/hardening.md, "SPARQL
// conformance"): every positive read query passes the guard and round-trips (parse → stringifySparql → parse: the same
// query); every negative one is refused as a syntax error; every update, well-formed or not, never runs.
// Needs ../shared/data/w3c-sparql beside the repository, as the other ../shared tests; skipped (saying so) without it.
import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { parseSparql, sparqlKey, stringifySparql } from "@/lib/kg/sparql-syntax";
import { readW3cTests, W3C_ROOT } from "./manifest";
import { queryText } from "./run";

const present = fs.existsSync(W3C_ROOT);
if (!present) console.warn(`skipping the W3C SPARQL syntax tests: ${W3C_ROOT} not found`);
const tests = present ? readW3cTests() : [];
const of = (...types: string[]) => tests.filter((t) => types.includes(t.type)).map((t) => [t.id, t] as const);

/** The guard's refusal code for a query, or "accepted". */
function guard(text: string): string {
  try {
    parseReadOnly(text);
    return "accepted";
  } catch (e) {
    if (isAppError(e)) return e.code;
    throw e;
  }
}

describe.skipIf(!present)("W3C SPARQL syntax tests", () => {
  it("finds the suites' syntax tests", () => {
    expect(of("PositiveSyntaxTest").length).toBeGreaterThan(200);
    expect(of("NegativeSyntaxTest").length).toBeGreaterThan(90);
    expect(of("PositiveUpdateSyntaxTest", "NegativeUpdateSyntaxTest").length).toBeGreaterThan(50);
  });

  it.each(of("PositiveSyntaxTest"))("%s: passes the guard and round-trips", (_, test) => {
    const text = queryText(test.query!);
    expect(guard(text)).toBe("accepted");
    const ast = parseSparql(text);
    const written = stringifySparql(ast);
    expect(sparqlKey(parseSparql(written)), written).toBe(sparqlKey(ast));
  });

  it.each(of("NegativeSyntaxTest"))("%s: is refused as a syntax error", (_, test) => {
    expect(guard(queryText(test.query!))).toBe("sparql_syntax");
  });

  it.each(of("PositiveUpdateSyntaxTest"))("%s: is refused as an update", (_, test) => {
    expect(guard(queryText(test.query!))).toBe("sparql_forbidden");
  });

  it.each(of("NegativeUpdateSyntaxTest"))("%s: is refused (malformed update)", (_, test) => {
    expect(["sparql_syntax", "sparql_forbidden"]).toContain(guard(queryText(test.query!)));
  });
});
