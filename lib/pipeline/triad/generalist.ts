// G-agent (Triad §3.1): few-shot question parsing into triplets, a SPARQL template with entity/relation slots, and the
// answer type, in one validated call; a template that does not parse is sent back with the parser's message (≤ θ).
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import { kgNotesBlock, readKgNotes } from "@/lib/pipeline/common/kg-notes";
import type { KgNotesSource } from "@/lib/pipeline/types";
import { renderExamples, selectExamples, type ExampleSource } from "./examples";
import { ANSWER_TYPES, type Generalist, type Miss, type TriadState } from "./state";
import { parseTemplate } from "./template";

export const generalistSchema = z.object({
  triplets: z.array(z.array(z.union([z.string(), z.number()])).min(2).max(3)).default([]),
  template: z.string(),
  slots: z.record(z.string(), z.union([z.string(), z.number()])).default({}),
  answer_type: z.enum(ANSWER_TYPES),
});
type GeneralistReply = z.infer<typeof generalistSchema>;

/** The template, every slot it uses named by words of the question, and an answer type that agrees with it. */
export function validateGeneralist(reply: GeneralistReply): Validation<Generalist> {
  const template = parseTemplate(reply.template);
  if (!template.ok) return template;
  const used = [...template.value.entitySlots, ...template.value.relationSlots];
  if (used.length > 12) return { ok: false, reason: `the template has ${used.length} slots; use at most 12` };
  const mentions: Record<string, string> = {};
  const unnamed: string[] = [];
  for (const id of used) {
    const words = String(reply.slots[id] ?? "").replace(/\s+/g, " ").trim();
    if (words) mentions[id] = words.slice(0, 200);
    else unnamed.push(`<${id}>`);
  }
  if (unnamed.length) return { ok: false, reason: `"slots" does not say what ${unnamed.join(", ")} stand${unnamed.length === 1 ? "s" : ""} for` };
  const answerType = template.value.kind === "ASK" ? "boolean" : reply.answer_type === "boolean" ? "entities" : reply.answer_type;
  const triplets = reply.triplets.map((t): [string, string, string] => [String(t[0]), String(t[1]), String(t[2] ?? "")]);
  return { ok: true, value: { triplets, template: template.value, mentions, answerType } };
}

/** Earlier attempts that found nothing in the KG, for the next template (the A-agent's retry signal). */
export function previousAttempts(misses: Miss[]): string {
  if (misses.length === 0) return "";
  const lines = misses.map((m) => `- Attempt ${m.attempt}: ${m.template.replace(/\s+/g, " ")}\n  Result: ${m.reason}`);
  return `\n\nEarlier attempts found no answer in the KG:\n${lines.join("\n")}\nWrite a different template: other relation words, the other direction of an edge, fewer constraints, or another reading of the question.`;
}

// A turn's retry rounds ask for the same question's examples: chosen once per turn (pool read, labels, ranking).
const examplesOfTurn = new WeakMap<AgentContext, Map<string, ReturnType<typeof selectExamples>>>();
function examplesOnce(question: string, ctx: AgentContext, source?: ExampleSource): ReturnType<typeof selectExamples> {
  let chosen = examplesOfTurn.get(ctx);
  if (!chosen) examplesOfTurn.set(ctx, (chosen = new Map()));
  let examples = chosen.get(question);
  if (!examples) chosen.set(question, (examples = selectExamples(question, ctx.config.triadExamples, ctx, source)));
  return examples;
}

/** `{ generalist }`, or `{ failure }` after θ rejected replies. */
export async function generalistAgent(state: TriadState, ctx: AgentContext, source?: ExampleSource, kgNotes?: KgNotesSource): Promise<Partial<TriadState>> {
  const question = state.standaloneQuestion ?? state.question;
  const notes = kgNotesBlock(await readKgNotes(kgNotes, ctx, "qir"));
  const { examples, origins } = await examplesOnce(question, ctx, source);
  ctx.emit({
    type: "tool-call",
    stage: "qir",
    tool: "few-shot-examples",
    input: { n: ctx.config.triadExamples },
    output: examples.map((e, i) => ({ question: e.question, from: origins[i] })),
  });
  const previous = previousAttempts(state.misses);
  const result = await validatedCall(ctx, {
    stage: "qir",
    role: "generalist",
    schema: generalistSchema,
    prompt: (feedback) =>
      renderPromptPair("triad-generalist", {
        notes,
        examples: examples.length ? `Examples:\n\n${renderExamples(examples)}` : "",
        question,
        previous,
        feedback: feedback ? `\n\n${feedback}` : "",
      }),
    validate: validateGeneralist,
  });
  if (!result.ok) return { failure: { stage: "qir", code: "pipeline_failed", message: `The G-agent wrote no usable SPARQL template: ${result.reason}` } };
  return { generalist: result.value };
}
