// The turn's JSON-column schemas: a table answer is stored and read back as is; a malformed one is refused.
import { describe, expect, it } from "vitest";
import { answerSchema } from "./json";

describe("answerSchema", () => {
  it("accepts a table with one cell per column (null = unbound)", () => {
    const table = {
      kind: "table",
      columns: ["person", "email"],
      rows: [
        [{ type: "uri", value: "http://example.org/a", label: "Ann" }, { type: "literal", value: "a@x.org" }],
        [{ type: "uri", value: "http://example.org/b" }, null],
      ],
    };
    expect(answerSchema.parse(table)).toEqual(table);
  });

  it("refuses rows whose width differs from the columns, and cells that are not items", () => {
    expect(answerSchema.safeParse({ kind: "table", columns: ["a", "b"], rows: [[null]] }).success).toBe(false);
    expect(answerSchema.safeParse({ kind: "table", columns: ["a"], rows: [["plain text"]] }).success).toBe(false);
    expect(answerSchema.safeParse({ kind: "table", columns: ["a"] }).success).toBe(false);
  });

  it("still reads the older kinds", () => {
    expect(answerSchema.parse({ kind: "items", items: [] })).toEqual({ kind: "items", items: [] });
    expect(answerSchema.parse({ kind: "count", count: 3 })).toEqual({ kind: "count", count: 3 });
  });
});
