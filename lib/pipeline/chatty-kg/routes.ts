// Routing as pure functions of state: which agent runs next (the conditional edges of the paper's Listing 1).
import type { ChattyState } from "./state";

/** After the Chat agent: run the KG pipeline, or the turn is a conversation reply. */
export function afterChat(state: ChattyState): "kg" | "reply" {
  return state.route === "reply" && state.reply ? "reply" : "kg";
}

/** Translate only when the Chat agent did not already give an English question. */
export function needsTranslation(state: ChattyState): boolean {
  return !state.englishQuestion;
}

/** The Classifier runs only on a follow-up turn in multi-turn mode, and only if nobody classified yet. */
export function needsClassification(state: ChattyState): boolean {
  return state.config.mode === "multi" && state.dialogue.length > 0 && state.contextDependent === undefined;
}

/** The Rephraser runs only for context-dependent questions that have no standalone form yet. */
export function needsRephrasing(state: ChattyState): boolean {
  return state.contextDependent === true && !state.standaloneQuestion;
}

/** The question every later agent works on: standalone > English > as typed. */
export function workingQuestion(state: ChattyState): string {
  return state.standaloneQuestion ?? state.englishQuestion ?? state.question;
}

/** Stop the pipeline as soon as an agent reports a failure. */
export function failed(state: ChattyState): boolean {
  return state.failure !== undefined;
}

/** An agent already produced the answer (no predicate fits → "none"): the remaining answer steps are not needed. */
export function answeredEarly(state: ChattyState): boolean {
  return state.answer !== undefined;
}
