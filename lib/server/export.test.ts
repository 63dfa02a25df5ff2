// Export: the Markdown transcript holds each question, its answer and its SPARQL; failures say what failed.
import { describe, expect, it } from "vitest";
import type { ConversationRecord, TurnRecord } from "@/lib/db/queries";
import { toExport, toMarkdown } from "./export";

const base: Omit<TurnRecord, "index" | "question" | "status" | "answer" | "sparql" | "error"> = {
  id: "t",
  conversationId: "c",
  naturalAnswer: null,
  source: "kg",
  standaloneQuestion: null,
  trace: [],
  stats: null,
  config: { kg: { id: "sample" } } as TurnRecord["config"],
  feedback: null,
  createdAt: new Date("2025-01-01T00:00:00Z"),
  finishedAt: null,
  attempt: 1,
  change: null,
  attempts: [],
};

const QUERY = "SELECT ?b WHERE {\n  ?b <http://example.org/author> <http://example.org/Rowling>\n}";
const conversation: ConversationRecord = {
  id: "c",
  title: "Rowling",
  kgId: "sample",
  createdAt: new Date("2025-01-01T00:00:00Z"),
  updatedAt: new Date("2025-01-01T00:00:00Z"),
  turns: [
    {
      ...base,
      id: "t0",
      index: 0,
      question: "Which books did Rowling write?",
      status: "done",
      answer: { kind: "items", items: [{ type: "uri", value: "http://example.org/Stone", label: "Philosopher's Stone" }, { type: "literal", value: "Chamber" }] },
      sparql: [QUERY],
      error: null,
    },
    { ...base, id: "t1", index: 1, question: "How many?", status: "done", answer: { kind: "count", count: 7 }, sparql: ["SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o } # ```"], error: null },
    {
      ...base,
      id: "t3",
      index: 3,
      question: "Name and email of each editor?",
      status: "done",
      answer: {
        kind: "table",
        columns: ["editor", "email", "phone"],
        rows: [
          [{ type: "uri", value: "http://example.org/Ann", label: "Ann | A." }, { type: "literal", value: "ann@example.org" }, null],
          [{ type: "uri", value: "http://example.org/Bo" }, { type: "literal", value: "bo@example.org" }, { type: "literal", value: "+1 555\n0100" }],
        ],
      },
      sparql: [],
      error: null,
    },
    { ...base, id: "t2", index: 2, question: "And films?", status: "failed", answer: null, sparql: [], error: { code: "llm_auth", message: "The API key was rejected." } },
  ],
};

describe("toMarkdown", () => {
  const md = toMarkdown(conversation);

  it("contains every question, its answer and its SPARQL in a sparql code block", () => {
    expect(md).toContain("# Rowling");
    expect(md).toContain("## 1. Which books did Rowling write?");
    expect(md).toContain("- Philosopher's Stone (<http://example.org/Stone>)");
    expect(md).toContain("- Chamber");
    expect(md).toContain("```sparql\n" + QUERY + "\n```");
    expect(md).toContain("## 2. How many?");
    expect(md).toContain("Count: 7");
  });

  it("writes a table answer as a Markdown table with every column and row, pipes escaped", () => {
    expect(md).toContain(
      [
        "| editor | email | phone |",
        "|---|---|---|",
        "| Ann \\| A. (<http://example.org/Ann>) | ann@example.org |  |",
        "| http://example.org/Bo | bo@example.org | +1 555 0100 |",
      ].join("\n"),
    );
  });

  it("keeps a query containing backticks inside its fence", () => {
    expect(md).toContain("````sparql\nSELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o } # ```\n````");
  });

  it("says what failed for a failed turn", () => {
    expect(md).toContain("## 3. And films?");
    expect(md).toContain("**Failed**: The API key was rejected.");
  });
});

describe("toExport", () => {
  it("lists turns with questions, answers, SPARQL and errors, without traces", () => {
    const json = toExport(conversation);
    expect(json.turns.map((t) => t.question)).toEqual(["Which books did Rowling write?", "How many?", "Name and email of each editor?", "And films?"]);
    expect(json.turns[2].answer).toMatchObject({ kind: "table", columns: ["editor", "email", "phone"] });
    expect(json.turns[0].sparql).toEqual([QUERY]);
    expect(json.turns[3].error?.code).toBe("llm_auth");
    expect(JSON.stringify(json)).not.toContain("trace");
  });
});

describe("a turn the user re-ran after a correction", () => {
  const first = { ...base, attempt: 1, status: "done" as const, answer: { kind: "none" as const, reason: "No film fits." }, sparql: [], error: null };
  const corrected: ConversationRecord = {
    ...conversation,
    turns: [
      {
        ...base,
        id: "t0",
        index: 0,
        question: "Which films did Daniel Radcliffe star in?",
        status: "done",
        answer: { kind: "items", items: [{ type: "uri", value: "http://example.org/Swiss_Army_Man", label: "Swiss Army Man" }] },
        sparql: [QUERY],
        error: null,
        attempt: 2,
        change: { baseAttempt: 1, correction: { kind: "vertex", mention: "Daniel Radcliffe", iri: "http://example.org/Daniel_Radcliffe", label: "Daniel Radcliffe" } },
        attempts: [first],
      },
    ],
  };

  it("exports every attempt: the earlier ones with what they answered, the latest with the correction that started it", () => {
    const json = toExport(corrected);
    expect(json.turns[0]).toMatchObject({ attempt: 2, change: { baseAttempt: 1, correction: { kind: "vertex" } }, answer: { kind: "items" } });
    expect(json.turns[0].attempts).toEqual([
      { attempt: 1, change: null, status: "done", answer: { kind: "none", reason: "No film fits." }, source: "kg", naturalAnswer: null, standaloneQuestion: null, sparql: [], error: null },
    ]);
    const md = toMarkdown(corrected);
    expect(md).toContain("### Attempt 1\n\n**Answer**\n\n_No answer in the knowledge graph: No film fits._");
    expect(md).toContain('### Attempt 2 (from attempt 1: Linked "Daniel Radcliffe" to Daniel Radcliffe (Daniel_Radcliffe)) (latest)');
    expect(md.indexOf("### Attempt 1")).toBeLessThan(md.indexOf("Swiss Army Man"));
  });
});

describe("an answer from the model's own knowledge", () => {
  const llmTurn: TurnRecord = { ...base, id: "t9", index: 0, question: "Who is the mayor of Hogsmeade?", status: "done", source: "llm", answer: { kind: "items", items: [{ type: "literal", value: "Aberforth" }] }, sparql: [], error: null };
  const c: ConversationRecord = { ...conversation, turns: [llmTurn, conversation.turns[1]] };

  it("is labelled not from the KG in the Markdown transcript and the JSON export; KG answers are not", () => {
    expect(toMarkdown(c)).toContain("**Answer** _(From the model's own knowledge, not from the KG)_\n\n- Aberforth");
    expect(toMarkdown(c).match(/not from the KG/g)).toHaveLength(1);
    const json = toExport(c);
    expect(json.turns[0]).toMatchObject({ source: "llm", note: "From the model's own knowledge, not from the KG" });
    expect(json.turns[1]).toMatchObject({ source: "kg" });
    expect(json.turns[1]).not.toHaveProperty("note");
  });
});
