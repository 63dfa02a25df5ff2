// Tool results and tool errors as an MCP client reads them, and the text forms of query results and derivations.
import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { derivationSteps } from "./ask-tool";
import { resultText } from "./kg-tools";
import { guarded, toolError, toolResult } from "./results";

describe("tool results", () => {
  it("an AppError becomes a tool error with its stable code in the text, and no structured content (that must fit the success schema)", async () => {
    const r = await guarded(async () => {
      throw new AppError("sparql_forbidden", "Only read queries may run.", { where: { line: 1 } });
    });
    expect(r.isError).toBe(true);
    expect(r.content).toEqual([{ type: "text", text: "error [sparql_forbidden]: Only read queries may run." }]);
    expect(r.structuredContent).toBeUndefined();
  });

  it("anything else thrown is an internal error, and a key in a message is redacted", () => {
    process.env.LLM_API_KEY = "sk-very-secret-key-1234567890";
    try {
      const r = toolError(new Error("provider said: bad key sk-very-secret-key-1234567890"));
      expect((r.content[0] as { text: string }).text).toMatch(/^error \[internal\]: /);
      expect(JSON.stringify(r)).not.toContain("sk-very-secret-key-1234567890");
    } finally {
      delete process.env.LLM_API_KEY;
    }
  });

  it("a result carries text and, when given, structured data", () => {
    expect(toolResult("ok")).toEqual({ content: [{ type: "text", text: "ok" }] });
    expect(toolResult("ok", { n: 1 }).structuredContent).toEqual({ n: 1 });
  });
});

describe("text forms", () => {
  it("a SELECT result is a small table with labelled IRIs and typed literals", () => {
    const text = resultText(
      {
        kind: "SELECT",
        head: { vars: ["p", "n"] },
        results: { bindings: [{ p: { type: "uri", value: "http://x/a" }, n: { type: "literal", value: "3", datatype: "http://www.w3.org/2001/XMLSchema#integer" } }] },
      },
      { "http://x/a": "A" },
    );
    expect(text).toBe('?p | ?n\n<http://x/a> (A) | "3"^^<http://www.w3.org/2001/XMLSchema#integer>');
    expect(resultText({ kind: "ASK", head: {}, boolean: true }, {})).toBe("ASK → true");
  });

  it("a derivation keeps stage summaries and queries, and drops LLM call records", () => {
    const steps = derivationSteps([
      { type: "stage-end", stage: "qir", at: 0, ms: 12.4, summary: "1 triple" },
      { type: "sparql", stage: "execution", purpose: "candidate #1", query: "SELECT …", ms: 3, rows: 2 },
      { type: "llm-call", stage: "qir", call: {} as never },
    ]);
    expect(steps).toEqual([
      { step: "qir", summary: "1 triple", ms: 12 },
      { step: "execution", query: "SELECT …", purpose: "candidate #1", rows: 2 },
    ]);
  });
});
