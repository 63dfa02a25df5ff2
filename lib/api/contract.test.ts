// The contract's request schemas accept what the client sends and refuse what the server must not run.
import { describe, expect, it } from "vitest";
import { TURN_STATUSES as DB_STATUSES } from "@/lib/db/json";
import { TURN_STATUSES, turnRequestSchema, llmOverrideSchema, sparqlRequestSchema } from "./contract";

describe("contract", () => {
  it("has the same turn statuses as the database", () => {
    expect([...TURN_STATUSES]).toEqual([...DB_STATUSES]);
  });

  it("accepts a useChat-style body with extra keys and fills pipeline defaults later", () => {
    const r = turnRequestSchema.parse({ id: "chat", messages: [], question: " Hi ", kgId: "sample", config: { theta: 2 } });
    expect(r).toMatchObject({ question: "Hi", kgId: "sample", config: { theta: 2 } });
    expect("messages" in r).toBe(false);
  });

  it("ignores a request's row limit and KG budget: the server's caps stay", () => {
    const r = turnRequestSchema.parse({ question: "q", kgId: "sample", config: { theta: 2, rowLimit: 10_000_000, kgQueryBudget: 100_000, kgTimeBudgetMs: 3_600_000 } });
    expect(r.config).toMatchObject({ theta: 2 });
    for (const key of ["rowLimit", "kgQueryBudget", "kgTimeBudgetMs"]) expect(r.config && key in r.config).toBe(false);
  });

  it("refuses empty questions, out-of-range parameters and non-http base URLs", () => {
    expect(turnRequestSchema.safeParse({ question: "  ", kgId: "sample" }).success).toBe(false);
    expect(turnRequestSchema.safeParse({ question: "q", kgId: "sample", config: { theta: 0 } }).success).toBe(false);
    expect(llmOverrideSchema.safeParse({ provider: "openai-compatible", model: "m", baseURL: "file:///etc/passwd" }).success).toBe(false);
    expect(llmOverrideSchema.safeParse({ provider: "mock", model: "m" }).success).toBe(false);
    expect(sparqlRequestSchema.safeParse({ kgId: "sample", query: "" }).success).toBe(false);
  });
});
