import { describe, expect, it } from "vitest";
import { answerText } from "./answer-text";

describe("answerText (the turn's Copy)", () => {
  it("copies every item, one a line, with the sentence answer after them", () => {
    const text = answerText({
      answer: { kind: "items", items: [{ type: "uri", value: "http://x/a", label: "Alpha" }, { type: "literal", value: "2001-11-16" }] },
      naturalAnswer: "Alpha, on 16 November 2001.",
      source: "kg",
    });
    expect(text).toBe("Alpha\n2001-11-16\n\nAlpha, on 16 November 2001.");
  });

  it("copies a table as tab-separated rows with its header", () => {
    const text = answerText({ answer: { kind: "table", columns: ["name", "year"], rows: [[{ type: "literal", value: "A" }, { type: "literal", value: "1999" }]] }, source: "kg" });
    expect(text.split("\n")[0]).toBe("name\tyear");
    expect(text).toContain("A\t1999");
  });

  it("says when the KG has no answer, and labels the model's own knowledge", () => {
    expect(answerText({ answer: { kind: "none", reason: "no film by that name" }, source: "none" })).toBe("The KG has no answer: no film by that name");
    expect(answerText({ answer: { kind: "boolean", value: true }, source: "llm" })).toMatch(/^Yes\n\n\(.*not from the KG\)$/);
  });
});
