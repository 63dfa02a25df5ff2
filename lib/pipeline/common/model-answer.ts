// An answer the model gives from its own knowledge (the "LLM only" baseline; Triad's A-agent behind allowModelKnowledge):
// a list, a count or yes/no, checked and mapped to an Answer. Callers mark its source "llm": never a KG answer.
import { z } from "zod";
import type { Answer } from "@/lib/pipeline/types";
import type { Validation } from "./validated-call";

/** Entries kept from a list answer (the model may enumerate a lot). */
export const MAX_ANSWERS = 200;
/** An entry longer than this is a sentence, not an answer value. */
const MAX_ANSWER_CHARS = 300;

// Models often write numbers and booleans unquoted; accept them and read them as text.
export const modelAnswerSchema = z.object({
  answers: z.array(z.union([z.string(), z.number(), z.boolean()])),
  type: z.enum(["list", "count", "boolean"]),
});
export type ModelAnswerReply = z.infer<typeof modelAnswerSchema>;

const YES = new Set(["yes", "true", "y"]);
const NO = new Set(["no", "false", "n"]);

/** Maps the reply to an Answer: list → literal items (empty → none), count → number, boolean → yes/no. */
export function validateModelAnswer(reply: ModelAnswerReply): Validation<Answer> {
  const values = reply.answers.map((a) => String(a).replace(/\s+/g, " ").trim());
  if (values.some((v) => v === "")) return { ok: false, reason: '"answers" contains an empty entry' };
  const long = values.find((v) => v.length > MAX_ANSWER_CHARS);
  if (long) return { ok: false, reason: `"${long.slice(0, 60)}…" is a sentence: give the answer values only` };
  if (reply.type === "boolean") {
    const v = values.length === 1 ? values[0].toLowerCase().replace(/[.!]$/, "") : "";
    if (YES.has(v)) return { ok: true, value: { kind: "boolean", value: true } };
    if (NO.has(v)) return { ok: true, value: { kind: "boolean", value: false } };
    return { ok: false, reason: 'type "boolean" needs exactly one entry, "yes" or "no"' };
  }
  if (reply.type === "count") {
    const n = values.length === 1 ? Number(values[0].replace(/[,_\s]/g, "")) : NaN;
    if (!Number.isFinite(n) || n < 0) return { ok: false, reason: 'type "count" needs exactly one entry: a non-negative number in digits' };
    return { ok: true, value: { kind: "count", count: n } };
  }
  const unique = [...new Set(values)].slice(0, MAX_ANSWERS);
  if (unique.length === 0) return { ok: true, value: { kind: "none", reason: "The model did not know the answer." } };
  return { ok: true, value: { kind: "items", items: unique.map((value) => ({ type: "literal" as const, value })) } };
}
