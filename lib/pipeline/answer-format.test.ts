// Plain-text answer descriptions: items, tables (rows × columns, unbound cells), counts, yes/no.
import { describe, expect, it } from "vitest";
import { describeAnswer, rowText } from "./answer-format";
import type { Answer } from "./types";

const table: Answer = {
  kind: "table",
  columns: ["film", "runtime"],
  rows: [
    [{ type: "uri", value: "http://example.org/f1", label: "Film One" }, { type: "literal", value: "152", datatype: "http://www.w3.org/2001/XMLSchema#integer" }],
    [{ type: "uri", value: "http://example.org/f2" }, null],
    [{ type: "uri", value: "http://example.org/f3", label: "Film Three" }, { type: "literal", value: "142" }],
  ],
};

describe("describeAnswer", () => {
  it("describes a table by its size, columns and first rows", () => {
    expect(describeAnswer(table, 2)).toBe("3 rows × 2 columns (film, runtime): Film One | 152; http://example.org/f2 | —; … (1 more)");
    expect(describeAnswer({ kind: "table", columns: ["a"], rows: [] })).toBe("0 rows × 1 column (a)");
  });

  it("keeps the other kinds as before", () => {
    expect(describeAnswer({ kind: "items", items: [{ type: "literal", value: "x", lang: "de" }] })).toBe("1 item: x (de)");
    expect(describeAnswer({ kind: "count", count: 8 })).toBe("count 8");
    expect(describeAnswer({ kind: "boolean", value: false })).toBe("no");
  });

  it("rowText joins cells with a custom renderer", () => {
    expect(rowText([null, { type: "literal", value: "v" }], (i) => `[${i.value}]`)).toBe("— | [v]");
  });
});
