import { describe, expect, it } from "vitest";
import type { DialogueTurn } from "@/lib/pipeline/types";
import { buildDialogueContext, formatAnswer } from "./dialogue-context";

const ROWLING = "http://example.org/hp/J_K_Rowling";
const dialogue: DialogueTurn[] = [
  {
    question: "Who is the author of Harry Potter?",
    answer: { kind: "items", items: [{ type: "uri", value: ROWLING, label: "J. K. Rowling" }] },
  },
  { question: "How many books are in the series?", answer: { kind: "count", count: 7 } },
  { question: "Is she British?", answer: { kind: "boolean", value: true } },
  { question: "What is her shoe size?", answer: { kind: "none", reason: "no matching predicate" } },
];

describe("buildDialogueContext", () => {
  it("lists every previous question with its answer (label + IRI, counts, yes/no, no answer)", () => {
    const text = buildDialogueContext(dialogue, { answerLimit: 5, mode: "multi" });
    expect(text).toBe(
      [
        "Q1: Who is the author of Harry Potter?",
        `A1: J. K. Rowling <${ROWLING}>`,
        "Q2: How many books are in the series?",
        "A2: 7 (a count)",
        "Q3: Is she British?",
        "A3: yes",
        "Q4: What is her shoe size?",
        "A4: no answer in the KG",
      ].join("\n"),
    );
  });

  it("keeps at most L items per answer and says how many were left out", () => {
    const items = Array.from({ length: 12 }, (_, i) => ({ type: "uri" as const, value: `http://example.org/film/${i}`, label: `Film ${i}` }));
    const text = buildDialogueContext([{ question: "Which films exist?", answer: { kind: "items", items } }], { answerLimit: 3, mode: "multi" });
    expect(text).toContain("Film 0 <http://example.org/film/0>; Film 1");
    expect(text).toContain("Film 2 <http://example.org/film/2> …and 9 more");
    expect(text).not.toContain("Film 3");
  });

  it("is empty in single-turn mode and on the first turn", () => {
    expect(buildDialogueContext(dialogue, { answerLimit: 5, mode: "single" })).toBe("");
    expect(buildDialogueContext([], { answerLimit: 5, mode: "multi" })).toBe("");
  });

  it("renders literals with language tags, failed turns, and conversation replies", () => {
    expect(formatAnswer({ kind: "items", items: [{ type: "literal", value: "1997-06-26", datatype: "xsd:date" }] }, 5)).toBe("1997-06-26");
    expect(formatAnswer({ kind: "items", items: [{ type: "literal", value: "Harry Potter", lang: "en" }] }, 5)).toBe("Harry Potter@en");
    expect(formatAnswer(null, 5)).toContain("failed");
    expect(formatAnswer({ kind: "chat", text: "Hello! Ask me about the graph." }, 5)).toBe("(conversation reply) Hello! Ask me about the graph.");
    expect(formatAnswer({ kind: "items", items: [] }, 5)).toBe("no answer in the KG");
  });

  it("shows a table compactly: columns once, at most L rows (cells label + IRI), unbound cells as —", () => {
    const rows = Array.from({ length: 5 }, (_, i) => [
      { type: "uri" as const, value: `http://example.org/p/${i}`, label: `Person ${i}` },
      i === 1 ? null : { type: "literal" as const, value: `p${i}@example.org` },
    ]);
    const text = formatAnswer({ kind: "table", columns: ["person", "email"], rows }, 2);
    expect(text).toBe("table (person | email), 5 rows: Person 0 <http://example.org/p/0> | p0@example.org; Person 1 <http://example.org/p/1> | — …and 3 more rows");
    expect(formatAnswer({ kind: "table", columns: ["a", "b"], rows }, 0)).toBe("table (a | b), 5 rows (not shown)");
    expect(formatAnswer({ kind: "table", columns: ["a", "b"], rows: [] }, 3)).toBe("no answer in the KG");
  });

  it("with L = 0 says how many items there were without listing them", () => {
    const answer = { kind: "items" as const, items: [{ type: "uri" as const, value: ROWLING }, { type: "uri" as const, value: ROWLING + "2" }] };
    expect(formatAnswer(answer, 0)).toBe("2 items (not shown)");
  });
});
