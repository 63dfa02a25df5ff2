// Classifier agent (paper §4.2.1): zero-shot, sees the dialogue context Cq; is the question self-contained or dependent?
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { ChattyState } from "../state";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { buildDialogueContext, hasDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import { validatedCall } from "@/lib/pipeline/common/validated-call";

export const classificationSchema = z.object({ dependent: z.boolean() });

/** Why the Classifier makes no LLM call for this state, or undefined when it must classify. */
export function classifierSkipReason(state: ChattyState): string | undefined {
  if (state.contextDependent !== undefined) return "already classified by the Chat agent";
  if (state.config.mode === "single") return "single-turn mode: every question stands alone";
  if (!hasDialogueContext(state.dialogue, state.config.mode)) return "first turn: nothing to depend on";
  return undefined;
}

/** Returns {contextDependent}. No call on turn 1, in single-turn mode, or when the Chat agent already decided. */
export async function classifierAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (state.contextDependent !== undefined) return {};
  if (classifierSkipReason(state)) return { contextDependent: false };
  const question = (state.englishQuestion ?? state.question).trim();
  const context = buildDialogueContext(state.dialogue, { answerLimit: ctx.config.answerLimit, mode: ctx.config.mode });
  const result = await validatedCall(ctx, {
    stage: "classify",
    role: "classifier",
    schema: classificationSchema,
    prompt: (feedback) => renderPromptPair("classifier", { context, question, feedback: feedback ? `\n${feedback}` : "" }),
    validate: (value) => ({ ok: true, value: value.dependent }),
  });
  if (result.ok) return { contextDependent: result.value };
  // Safe default: the Rephraser returns a self-contained question unchanged, while a missed dependency would be lost.
  ctx.emit({ type: "warning", stage: "classify", message: `Classifier gave no valid answer (${result.reason}); treating the question as context-dependent.` });
  return { contextDependent: true };
}
