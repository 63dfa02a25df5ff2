// Rephraser agent (paper §4.2.2): zero-shot, rewrites a context-dependent question into a standalone one using Cq.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { ChattyState } from "../state";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { buildDialogueContext, hasDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";

export const rephraseSchema = z.object({ question: z.string() });

// Words that point back into the conversation; a rewrite that keeps the question unchanged while it has one failed.
const REFERRING = new Set(
  "he she it its they them their theirs his her hers him this that these those there then former latter same one ones".split(" "),
);
// Words that carry no entity or relation on their own.
const FUNCTION_WORDS = new Set(
  [...REFERRING, ..."what who whom whose which when where why how is are was were did does do has have had the a an of in on at to for by and or about with many much".split(" ")],
);

const words = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
const canonical = (text: string) => words(text).join(" ");

/**
 * Assertions on a rewrite: non-empty, of a sane length, has at least one content word (not "What about it?"),
 * and, when the original clearly points back (a referring word, or ≤ 3 words), is not the original unchanged.
 */
export function validateRephrase(rewrite: string, original: string): Validation<string> {
  const q = rewrite.replace(/\s+/g, " ").trim();
  if (!q) return { ok: false, reason: '"question" is empty' };
  if (q.length > Math.max(400, original.length * 6)) return { ok: false, reason: '"question" is far too long: rewrite the question, do not answer or explain it' };
  if (!words(q).some((w) => !FUNCTION_WORDS.has(w))) {
    return { ok: false, reason: `"${q}" names no entity: replace the references by the names from the conversation` };
  }
  const originalWords = words(original);
  const pointsBack = originalWords.some((w) => REFERRING.has(w)) || originalWords.length <= 3;
  if (pointsBack && canonical(q) === canonical(original)) {
    return { ok: false, reason: `the question was returned unchanged, but it still refers to the conversation ("${original.trim()}"): name the entities it refers to` };
  }
  return { ok: true, value: q };
}

/** Why the Rephraser makes no LLM call for this state, or undefined when it must rewrite. */
export function rephraserSkipReason(state: ChattyState): string | undefined {
  if (state.standaloneQuestion) return "the Chat agent already gave the standalone question";
  if (!hasDialogueContext(state.dialogue, state.config.mode)) {
    return state.config.mode === "single" ? "single-turn mode: every question stands alone" : "first turn: nothing to resolve";
  }
  if (state.contextDependent !== true) return "the question is self-contained";
  return undefined;
}

/** Returns {standaloneQuestion}; the question itself (no call) when there is nothing to resolve. */
export async function rephraserAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (state.standaloneQuestion) return {};
  const question = (state.englishQuestion ?? state.question).trim();
  if (rephraserSkipReason(state)) return { standaloneQuestion: question };
  const context = buildDialogueContext(state.dialogue, { answerLimit: ctx.config.answerLimit, mode: ctx.config.mode });
  const result = await validatedCall(ctx, {
    stage: "rephrase",
    role: "rephraser",
    schema: rephraseSchema,
    prompt: (feedback) => renderPromptPair("rephraser", { context, question, feedback: feedback ? `\n${feedback}` : "" }),
    validate: (value) => validateRephrase(value.question, question),
  });
  if (result.ok) return { standaloneQuestion: result.value };
  const last = /last reason: ([\s\S]*)$/.exec(result.reason)?.[1] ?? result.reason;
  return { failure: { stage: "rephrase", code: "pipeline_failed", message: `Could not tell what the question refers to: ${last}` } };
}
