// Class linking on a small town KG: a class named by a misspelt word is still offered, as the typo-tolerant name search
// would read the word.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createFixtureKg, createTestContext } from "@/test/fixtures/kg/harness";
import { classOptions } from "./class-linking";

const T = "http://example.org/town/";
const kg = createFixtureKg(path.join(process.cwd(), "test/fixtures/kg/chatty/town-shops.ttl"));

describe("classOptions", () => {
  it("offers the class a misspelt plural names (one edit), not as an exact match", async () => {
    const { ctx } = createTestContext({ kg, llm: createScriptedLlm().gateway });
    const options = await classOptions("inspetions", ctx);
    expect(options.map((o) => o.iri)).toContain(`${T}Inspection`);
    expect(options.find((o) => o.iri === `${T}Inspection`)).toMatchObject({ exact: false });
  });
});
