// QIR agent (paper §4.2.3, Algorithm 1 lines 7–13): chain-of-thought + two examples -> triples, validated, ≤ θ attempts.
import { renderPromptPair } from "@/lib/prompts";
import type { ChattyState } from "../state";
import type { AgentContext } from "../context";
import { validatedCall } from "../validated-call";
import { qirOutputSchema, validateQir } from "./qir-validator";

/** Returns {qir}; after θ rejected outputs a clear failure (an invalid QIR is never passed on). */
export async function qirAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const question = (state.standaloneQuestion ?? state.englishQuestion ?? state.question).trim();
  const result = await validatedCall(ctx, {
    stage: "qir",
    role: "qir",
    schema: qirOutputSchema,
    prompt: (feedback) => renderPromptPair("qir", { question, feedback: feedback ? `\n${feedback}` : "" }),
    validate: validateQir,
  });
  if (result.ok) return { qir: result.value };
  const last = /last reason: ([\s\S]*)$/.exec(result.reason)?.[1] ?? result.reason;
  return { failure: { stage: "qir", code: "pipeline_failed", message: `Could not understand the question: ${last}` } };
}
