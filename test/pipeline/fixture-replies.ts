// Scripted-LLM fixtures for whole-pipeline tests: per-role replies in JSON, with option NUMBERS resolved from the prompt.
//
// A competent model answers vertex and predicate selection with the numbers of the options it was shown. Those
// numbers depend on the KG's label-search order, so fixtures name the option instead and this module turns it into
// the number at call time: any string "#<regex>" inside a vertex `choices` value or a predicates `predicates` list
// becomes the number(s) of the numbered prompt line(s) ("12. starring", "3. Harry Potter — type: book series") whose
// text after the number matches the regex (case-insensitive). A marker that matches nothing is left as is, so the
// agent's validator rejects it exactly as it would reject a model naming a missing option.
import { readFileSync } from "node:fs";
import { z } from "zod";
import type { PlainMessage, ReplyValue } from "@/lib/llm/testing/replies";
import type { Script, ScriptedReply } from "@/lib/llm/testing/scripted-model";
import type { AgentRole } from "@/lib/llm/types";
import { AGENT_ROLES } from "@/lib/llm/types";

export const roleRepliesSchema = z.partialRecord(z.enum(AGENT_ROLES), z.array(z.unknown()));
export type RoleReplies = z.infer<typeof roleRepliesSchema>;

/** Numbered options ("7. label …") of the last user message: [number, text after the number]. */
export function promptOptions(messages: PlainMessage[]): [number, string][] {
  const last = [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
  return last
    .split("\n")
    .map((line) => /^(\d+)\. (.*)$/.exec(line.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => [Number(m[1]), m[2]] as [number, string]);
}

function resolveMarker(value: unknown, options: [number, string][]): unknown[] {
  if (typeof value !== "string" || !value.startsWith("#")) return [value];
  const re = new RegExp(value.slice(1), "i");
  const hits = options.filter(([, text]) => re.test(text)).map(([n]) => n);
  return hits.length ? hits : [value];
}

/** Turns one fixture reply into what the model would have sent for this prompt. */
export function resolveReply(role: AgentRole, reply: unknown, messages: PlainMessage[]): ReplyValue {
  if (typeof reply !== "object" || reply === null) return reply as ReplyValue;
  const options = promptOptions(messages);
  if (role === "vertex" && "choices" in reply) {
    const choices = Object.fromEntries(
      Object.entries((reply as { choices: Record<string, unknown> }).choices).map(([k, v]) => [k, resolveMarker(v, options)[0]]),
    );
    return { ...reply, choices };
  }
  if (role === "predicates" && "predicates" in reply && Array.isArray((reply as { predicates: unknown }).predicates)) {
    const list = (reply as { predicates: unknown[] }).predicates.flatMap((p) => resolveMarker(p, options));
    return { ...reply, predicates: [...new Set(list)] };
  }
  return reply as ReplyValue;
}

/** A scripted-LLM script from fixture replies (every reply resolved against the prompt it answers). */
export function scriptFrom(replies: RoleReplies): Script {
  const script: Script = {};
  for (const [role, list] of Object.entries(replies) as [AgentRole, unknown[]][]) {
    script[role] = list.map((r): ScriptedReply => (messages) => resolveReply(role, r, messages));
  }
  return script;
}

export function readJson<T>(file: string, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}
