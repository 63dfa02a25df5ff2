import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createFixtureKg, createTestContext, RES } from "@/test/fixtures/kg/harness";
import { fetchHints, formatHint } from "./vertex-hints";

describe("fetchHints", () => {
  it("gives same-named vertices their labelled types and descriptions, so they can be told apart", async () => {
    const { ctx, sparql } = createTestContext({ kg: createFixtureKg(), llm: createScriptedLlm().gateway });
    const hints = await fetchHints(ctx, [`${RES}Daniel_Radcliffe`, `${RES}Daniel_Radcliffe_engineer`]);
    expect(hints.get(`${RES}Daniel_Radcliffe`)).toEqual({ types: ["actor"], description: "English actor who played Harry Potter" });
    expect(hints.get(`${RES}Daniel_Radcliffe_engineer`)?.types).toEqual(["engineer"]);
    expect(sparql().every((e) => e.stage === "entity-linking")).toBe(true);
  });

  it("formats a hint as the option lines show it, and nothing without one", () => {
    expect(formatHint({ types: ["film", "novel"], description: "a book" })).toBe(' — type: film, novel; "a book"');
    expect(formatHint({ types: [] })).toBe("");
  });
});
