import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { Term } from "@/lib/kg/types";
import { createFixtureKg, createTestContext, RES } from "@/test/fixtures/kg/harness";
import { dedupeTerms, isNumericLiteral, labelItems } from "./answer-from-rows";

const lit = (value: string, extra: { datatype?: string; "xml:lang"?: string } = {}): Term => ({ type: "literal", value, ...extra });

describe("answer-from-rows", () => {
  it("recognises numeric literals only", () => {
    expect(isNumericLiteral(lit(" 223 "))).toBe(true);
    expect(isNumericLiteral(lit("-1.5e3"))).toBe(true);
    expect(isNumericLiteral(lit("223 pages"))).toBe(false);
    expect(isNumericLiteral({ type: "uri", value: "http://example.org/1" })).toBe(false);
  });

  it("drops repeated terms but keeps literals that differ in language or datatype", () => {
    const terms: Term[] = [lit("a"), lit("a"), lit("a", { "xml:lang": "en" }), lit("a", { datatype: "x:t" }), { type: "uri", value: "a" }];
    expect(dedupeTerms(terms)).toEqual([lit("a"), lit("a", { "xml:lang": "en" }), lit("a", { datatype: "x:t" }), { type: "uri", value: "a" }]);
  });

  it("labels IRIs through one execution-stage query and keeps literal details", async () => {
    const t = createTestContext({ kg: createFixtureKg(), llm: createScriptedLlm({}).gateway });
    const items = await labelItems([{ type: "uri", value: `${RES}JK_Rowling` }, lit("7", { datatype: "http://www.w3.org/2001/XMLSchema#integer" })], t.ctx);
    expect(items).toEqual([
      { type: "uri", value: `${RES}JK_Rowling`, label: "J. K. Rowling" },
      { type: "literal", value: "7", datatype: "http://www.w3.org/2001/XMLSchema#integer" },
    ]);
    expect(t.sparql().map((e) => e.stage)).toEqual(["execution"]);
  });

  it("runs no query when there is no IRI", async () => {
    const t = createTestContext({ kg: createFixtureKg(), llm: createScriptedLlm({}).gateway });
    expect(await labelItems([lit("x", { "xml:lang": "de" })], t.ctx)).toEqual([{ type: "literal", value: "x", lang: "de" }]);
    expect(t.sparql()).toHaveLength(0);
  });
});
