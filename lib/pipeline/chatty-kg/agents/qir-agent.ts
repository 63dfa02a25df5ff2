// QIR agent (paper §4.2.3, Algorithm 1 lines 7–13): chain-of-thought + two examples -> triples, validated, ≤ θ attempts.
// With batched QIR it first checks the Chat agent's draft with the same Triples validator and calls the LLM only if needed.
import { renderPromptPair } from "@/lib/prompts";
import type { ChattyState, Qir } from "../state";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import { kgNotesBlock, readKgNotes } from "@/lib/pipeline/common/kg-notes";
import { qirOutputSchema, validateQir, validateQirJson } from "./qir-validator";

const DRAFT_SHOWN = 800;

/** The validator's verdict on the Chat agent's draft, or undefined when there is none. */
export function checkQirDraft(state: Pick<ChattyState, "qirDraft">): Validation<Qir> | undefined {
  return state.qirDraft === undefined ? undefined : validateQirJson(state.qirDraft);
}

/** Feedback for the QIR agent's own call: what was wrong with the draft, so it is not repeated. */
export function draftFeedback(draft: unknown, reason: string): string {
  const shown = JSON.stringify(draft);
  return `A first draft of this QIR was rejected: ${reason}. The draft was: ${shown.length > DRAFT_SHOWN ? `${shown.slice(0, DRAFT_SHOWN)}…` : shown}. Answer with a corrected QIR, following the format exactly.`;
}

/** Returns {qir, qirSource}; after θ rejected outputs a clear failure (an invalid QIR is never passed on). */
export async function qirAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const draft = checkQirDraft(state);
  // a valid draft from the Chat agent's tool call saves the QIR call (same validator as the agent's own output)
  if (draft?.ok) return { qir: draft.value, qirSource: "chat" };
  if (draft) ctx.emit({ type: "warning", stage: "qir", message: `The Chat agent's QIR draft was rejected (${draft.reason}); the QIR agent builds its own.` });
  const question = (state.standaloneQuestion ?? state.englishQuestion ?? state.question).trim();
  const notes = kgNotesBlock(await readKgNotes(ctx.kgNotes, ctx, "qir"));
  const result = await validatedCall(ctx, {
    stage: "qir",
    role: "qir",
    schema: qirOutputSchema,
    prompt: (feedback) => renderPromptPair("qir", { notes, question, feedback: feedback ? `\n${feedback}` : "" }),
    validate: validateQir,
    initialFeedback: draft ? draftFeedback(state.qirDraft, draft.reason) : undefined,
  });
  if (result.ok) return { qir: result.value, qirSource: "agent" };
  const last = /last reason: ([\s\S]*)$/.exec(result.reason)?.[1] ?? result.reason;
  return { failure: { stage: "qir", code: "pipeline_failed", message: `Could not understand the question: ${last}` } };
}
