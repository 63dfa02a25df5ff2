// The QIR prompts (prompts/qir.md and the Chat agent's QIR section) describe every constraint field the Triples
// validator reads, and their examples are QIRs that validator accepts: the tool schema no longer lists the fields.
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readPrompt } from "@/lib/prompts";
import { constraintFields } from "./qir-constraints";
import { validateQirJson } from "./qir-validator";

const PROMPTS = ["qir", "chat-agent"] as const;

/** The keys of the objects inside a field's schema ("text", "type" of a value; "var", "dir", "count" of an order). */
function innerKeys(schema: z.ZodType): string[] {
  if (schema instanceof z.ZodObject) return Object.entries(schema.shape as Record<string, z.ZodType>).flatMap(([k, v]) => [k, ...innerKeys(v)]);
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable) return innerKeys(schema.unwrap() as z.ZodType);
  if (schema instanceof z.ZodArray) return innerKeys(schema.element as z.ZodType);
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap(innerKeys);
  return [];
}

/** The JSON examples of a prompt: the QIR of each line holding one ({"reasoning": …} or a tool input with "qir"). */
function examples(name: (typeof PROMPTS)[number]): Record<string, unknown>[] {
  return readPrompt(name)
    .split("\n")
    .filter((l) => /^\s*(Example \d[^:]*: )?\{"(reasoning|question)"/.test(l))
    .map((l) => JSON.parse(l.slice(l.indexOf("{"))) as Record<string, unknown>)
    .map((j) => (typeof j.qir === "object" && j.qir !== null ? (j.qir as Record<string, unknown>) : j));
}

describe.each(PROMPTS)("prompts/%s.md", (name) => {
  it("names every constraint field the validator reads", () => {
    const text = readPrompt(name);
    const missing = Object.keys(constraintFields).filter((f) => !text.includes(`"${f}"`));
    expect(missing).toEqual([]);
    // and the keys inside them: the tool's schema does not show them (ask-kg-args.ts)
    const inner = [...new Set(Object.values(constraintFields).flatMap((f) => innerKeys(f)))];
    expect(inner).toEqual(expect.arrayContaining(["text", "type", "var", "class", "op", "var2", "earlier_answers", "dir", "count", "fn", "as"]));
    expect(inner.filter((k) => !text.includes(`"${k}"`))).toEqual([]);
  });

  it("has examples the validator accepts, one of them with constraints", () => {
    const all = examples(name);
    expect(all.length).toBeGreaterThanOrEqual(3);
    for (const e of all) expect(validateQirJson(e), JSON.stringify(e)).toMatchObject({ ok: true });
    const constrained = all.map((e) => validateQirJson(e)).find((v) => v.ok && v.value.order && v.value.classes && v.value.comparisons);
    expect(constrained).toBeDefined();
  });
});
