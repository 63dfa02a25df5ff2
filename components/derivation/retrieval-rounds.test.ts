import { describe, expect, it } from "vitest";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { retrievalSteps } from "./retrieval-rounds";

describe("retrievalSteps", () => {
  it("reads SQL (rows or error) and fact searches per round from the stage's tool calls, dropping malformed ones", () => {
    const events: DerivationEvent[] = [
      { type: "tool-call", stage: "retrieval", tool: "sql", input: { round: 1, id: "S1", sql: "SELECT nope FROM t" }, error: "Binder Error: nope" },
      { type: "tool-call", stage: "retrieval", tool: "sql", input: { round: 2, id: "S2", sql: "SELECT a FROM t" }, output: { rows: 3, ms: 4.2, truncated: false } },
      { type: "tool-call", stage: "retrieval", tool: "search_facts", input: { round: 2, query: "a", automatic: true }, output: { mode: "bm25", hits: [{ id: "P1", label: "A", text: "A is a T." }, { bad: 1 }] } },
      { type: "tool-call", stage: "retrieval", tool: "sql", input: "not an object" },
      { type: "warning", stage: "retrieval", message: "x" },
    ];
    expect(retrievalSteps(events)).toEqual([
      { kind: "sql", round: 1, id: "S1", sql: "SELECT nope FROM t", rows: undefined, ms: undefined, truncated: false, error: "Binder Error: nope" },
      { kind: "sql", round: 2, id: "S2", sql: "SELECT a FROM t", rows: 3, ms: 4.2, truncated: false, error: undefined },
      { kind: "search", round: 2, query: "a", automatic: true, mode: "bm25", hits: [{ id: "P1", label: "A", text: "A is a T." }] },
    ]);
  });
});
