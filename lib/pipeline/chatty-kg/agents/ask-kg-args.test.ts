import { describe, expect, it } from "vitest";
import { zodSchema, type Schema } from "ai";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { askKgInputSchema, type AskKgArgs } from "@/lib/pipeline/common/ask-kg-args";
import { askKgToolInput, qirInToolCall, stateFromAskKgArgs } from "./ask-kg-args";

const base = { question: "Who wrote Dune?", language: "en", context_dependent: false };
const draft = { entities: ["Dune"], unknowns: ["?author"], relations: ["wrote"], triples: [["?author", "wrote", "Dune"]], target: "?author", question_type: "factoid" };

async function validate(schema: Schema<AskKgArgs>, value: unknown) {
  return schema.validate ? await schema.validate(value) : { success: false as const, error: new Error("no validate") };
}

describe("the ask_knowledge_graph tool input", () => {
  it("shows the model the QIR object with its descriptions", async () => {
    const json = (await (askKgToolInput(true) as Schema<AskKgArgs>).jsonSchema) as { properties: Record<string, { description?: string; properties?: Record<string, { description?: string }> }>; required?: string[] };
    expect(Object.keys(json.properties)).toEqual(["question", "language", "context_dependent", "qir"]);
    expect(json.required).not.toContain("qir");
    expect(json.properties.qir.properties?.triples.description).toMatch(/subject, relation, object/);
    expect(Object.keys(json.properties.qir.properties ?? {})).toEqual(["entities", "unknowns", "relations", "triples", "target", "question_type"]);
    // the optional constraints (values, classes, filters, …) are described in the prompt, not the schema sent with every
    // call: the object stays open to them
    expect((json.properties.qir as { additionalProperties?: unknown }).additionalProperties).not.toBe(false);
    // without batched QIR the model sees the old schema
    const plain = askKgToolInput(false) as Schema<AskKgArgs>;
    expect(await plain.jsonSchema).toEqual(await zodSchema(askKgInputSchema).jsonSchema);
    expect(JSON.stringify(await plain.jsonSchema)).not.toContain("qir");
    // one schema object per shape, so its JSON Schema is built once, not on every Chat call
    expect(askKgToolInput(false)).toBe(plain);
    expect(askKgToolInput(true)).toBe(askKgToolInput(true));
  });

  it("keeps any QIR object as sent, drops a non-object one, and still rejects bad base fields", async () => {
    const schema = askKgToolInput(true) as Schema<AskKgArgs>;
    expect(await validate(schema, { ...base, qir: draft })).toEqual({ success: true, value: { ...base, qir: draft } });
    const constrained = { ...draft, classes: [{ var: "?author", class: "novelist" }], order_by: [{ var: "?author", dir: "asc" }], limit: 1 };
    expect(await validate(schema, { ...base, qir: constrained })).toEqual({ success: true, value: { ...base, qir: constrained } });
    expect(await validate(schema, { ...base, qir: { triples: 3 } })).toEqual({ success: true, value: { ...base, qir: { triples: 3 } } });
    expect(await validate(schema, { ...base, qir: "Dune wrote ?x" })).toEqual({ success: true, value: base });
    expect(await validate(schema, base)).toEqual({ success: true, value: base });
    expect((await validate(schema, { question: "x" })).success).toBe(false);
  });

  it("uses the draft only with batched context and batched QIR", () => {
    expect(qirInToolCall(DEFAULT_CONFIG)).toBe(true);
    expect(qirInToolCall({ batchContext: false, batchQir: true })).toBe(false);
    expect(qirInToolCall({ batchContext: true, batchQir: false })).toBe(false);
    expect(stateFromAskKgArgs({ ...base, qir: draft }, true, true).qirDraft).toEqual(draft);
    expect(stateFromAskKgArgs({ ...base, qir: draft }, true, false).qirDraft).toBeUndefined();
    expect(stateFromAskKgArgs({ ...base, qir: draft }, false, true)).toEqual({ route: "kg" });
  });
});
