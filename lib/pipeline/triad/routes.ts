// Routing as pure functions of state: the Chat agent's outcome, when the D-agent's steps are skipped, and what the
// A-agent does after an attempt (answer, send the retry signal, or give up).
import type { Miss, TriadState } from "./state";

/** After the Chat agent: run the KG phases, or the turn is a conversation reply. */
export function afterChat(state: TriadState): "kg" | "reply" {
  return state.route === "reply" && state.reply ? "reply" : "kg";
}

/** A step of this attempt failed or found nothing: the remaining D-agent steps are not needed. */
export function attemptOver(state: TriadState): boolean {
  return state.failure !== undefined || state.miss !== undefined;
}

/**
 * The A-agent's decision: answer from the chosen query's rows; else retry the earlier phases while attempts remain
 * (T retries); else the model's own knowledge when allowed (never after a KG error); else no answer.
 */
export function advise(state: TriadState): "answer" | "retry" | "model-knowledge" | "none" | "failed" {
  if (state.chosen && !state.failure) return "answer";
  const kgError = state.failure !== undefined && state.failure.code.startsWith("kg_");
  if (!state.failure && state.attempt <= state.config.triadRetries) return "retry";
  if (state.config.allowModelKnowledge && !kgError) return "model-knowledge";
  return state.failure ? "failed" : "none";
}

/** The next attempt: what this one tried and why it missed is kept for the G-agent; everything else starts over. */
export function nextAttempt(state: TriadState): Partial<TriadState> {
  const miss: Miss = { attempt: state.attempt, template: state.generalist?.template.text ?? "(no template)", reason: state.miss ?? "no answer" };
  return {
    attempt: state.attempt + 1,
    misses: [...state.misses, miss],
    generalist: undefined,
    entities: undefined,
    relations: undefined,
    candidates: undefined,
    executed: undefined,
    results: undefined,
    chosen: undefined,
    miss: undefined,
    decision: undefined,
  };
}
