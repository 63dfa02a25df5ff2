import { describe, expect, it } from "vitest";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createTestContext } from "@/test/fixtures/kg/harness";
import { sampleKg } from "@/test/fixtures/kg/triad-harness";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { generalistAgent, previousAttempts, validateGeneralist } from "./generalist";
import type { TriadState } from "./state";

const reply = { triplets: [["Dune", "author", "?a"]], slots: { e0: "Dune", r0: "author" }, template: "SELECT ?a WHERE { <e0> <r0> ?a }", answer_type: "entities" as const };

describe("validateGeneralist", () => {
  it("keeps the template, the words of every slot and the answer type (an ASK is always boolean)", () => {
    const ok = validateGeneralist(reply);
    expect(ok.ok && ok.value.mentions).toEqual({ e0: "Dune", r0: "author" });
    const ask = validateGeneralist({ ...reply, template: "ASK { <e0> <r0> ?a }", answer_type: "entities" });
    expect(ask.ok && ask.value.answerType).toBe("boolean");
  });

  it("refuses a slot without words, naming it", () => {
    expect(validateGeneralist({ ...reply, slots: { e0: "Dune", r0: " " } })).toEqual({ ok: false, reason: '"slots" does not say what <r0> stands for' });
  });
});

describe("generalistAgent", () => {
  const state: TriadState = { question: "Who wrote Dune?", dialogue: [], config: DEFAULT_CONFIG, attempt: 2, misses: [{ attempt: 1, template: "SELECT ?a WHERE {\n <e0> <r0> ?a }", reason: "no KG predicate fits" }] };

  it("tells the model what earlier attempts found, and fails clearly after θ unusable templates", async () => {
    const llm = createScriptedLlm({ generalist: ["not json", { ...reply, template: "SELECT" }] });
    const { ctx, events } = createTestContext({ kg: sampleKg(), llm: llm.gateway, config: { theta: 2 } });
    const patch = await generalistAgent(state, ctx);
    expect(patch.failure).toMatchObject({ stage: "qir", message: expect.stringMatching(/^The G-agent wrote no usable SPARQL template: rejected 2 time\(s\); last reason: the SPARQL template does not parse/) });
    expect(llm.calls[0].messages.at(-1)?.text).toContain("Earlier attempts found no answer in the KG:\n- Attempt 1: SELECT ?a WHERE { <e0> <r0> ?a }\n  Result: no KG predicate fits");
    expect(events.filter((e) => e.type === "llm-call").map((e) => e.type === "llm-call" && e.call.validationError)).toHaveLength(2);
    expect(events.find((e) => e.type === "tool-call")).toMatchObject({ tool: "few-shot-examples", output: expect.arrayContaining([expect.objectContaining({ from: "default" })]) });
  });

  it("writes no earlier-attempts section on the first attempt", () => {
    expect(previousAttempts([])).toBe("");
  });
});
