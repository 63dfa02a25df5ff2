// Result downloads in the W3C result formats: CSV plain values (quoted when needed), TSV RDF terms, JSON bindings.
import { describe, expect, it } from "vitest";
import type { QueryResult } from "@/lib/kg/types";
import { resultFile } from "./result-files";

const select: QueryResult = {
  kind: "SELECT",
  head: { vars: ["film", "title", "year"] },
  results: {
    bindings: [
      { film: { type: "uri", value: "http://e/f1" }, title: { type: "literal", value: 'Say "hi", then go', "xml:lang": "en" }, year: { type: "literal", value: "2001", datatype: "http://www.w3.org/2001/XMLSchema#integer" } },
      { film: { type: "uri", value: "http://e/f2" }, title: { type: "literal", value: "two\nlines" } },
    ],
  },
};

describe("resultFile", () => {
  it("writes CSV with a header, quoted fields and an empty cell for an unbound value", () => {
    expect(resultFile(select, "csv").text).toBe('film,title,year\r\nhttp://e/f1,"Say ""hi"", then go",2001\r\nhttp://e/f2,"two\nlines",\r\n');
  });

  it("writes TSV with ?vars and RDF terms", () => {
    expect(resultFile(select, "tsv").text).toBe('?film\t?title\t?year\n<http://e/f1>\t"Say \\"hi\\", then go"@en\t"2001"^^<http://www.w3.org/2001/XMLSchema#integer>\n<http://e/f2>\t"two\\nlines"\t\n');
  });

  it("writes SPARQL JSON that reads back as the same bindings", () => {
    const f = resultFile(select, "json");
    expect(f.mime).toBe("application/sparql-results+json");
    const back = JSON.parse(f.text);
    expect(back.head.vars).toEqual(["film", "title", "year"]);
    expect(back.results.bindings).toEqual((select as Extract<QueryResult, { kind: "SELECT" }>).results.bindings);
  });

  it("writes a graph as N-Triples and an ASK as JSON", () => {
    const graph: QueryResult = { kind: "CONSTRUCT", triples: [{ subject: { type: "uri", value: "http://e/s" }, predicate: { type: "uri", value: "http://e/p" }, object: { type: "literal", value: "o" } }] };
    expect(resultFile(graph, "nt").text).toBe('<http://e/s> <http://e/p> "o" .\n');
    expect(JSON.parse(resultFile({ kind: "ASK", head: {}, boolean: true }, "json").text)).toEqual({ head: {}, boolean: true });
  });
});
