// The dialogue context Cq (paper §4.1): previous questions WITH their answers, each answer cut to L items (table: L rows).
import { rowText } from "@/lib/pipeline/answer-format";
import type { Answer, AnswerItem, DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";

export interface DialogueContextOptions {
  /** L: answer items kept per previous turn */
  answerLimit: number;
  /** single-turn mode: every question stands alone, so the context is empty */
  mode: PipelineConfig["mode"];
  /** characters kept of a free-text answer (chat / clarify replies) and of a single label */
  maxTextChars?: number;
}

const DEFAULT_TEXT_CHARS = 300;

function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(1, max - 1)).trimEnd()}…`;
}

/** One answer item as the LLM should see it: the label (so it can name the entity) plus the IRI (so it is unambiguous). */
export function formatAnswerItem(item: AnswerItem, maxChars = DEFAULT_TEXT_CHARS): string {
  if (item.type === "uri") return item.label ? `${clip(item.label, maxChars)} <${item.value}>` : `<${item.value}>`;
  const tag = item.lang ? `@${item.lang}` : "";
  return `${clip(item.value, maxChars)}${tag}`;
}

/** A compact one-line rendering of an answer; lists keep at most `limit` items and say how many were left out. */
export function formatAnswer(answer: Answer | null, limit: number, maxChars = DEFAULT_TEXT_CHARS): string {
  if (answer === null) return "(no answer: the turn failed)";
  switch (answer.kind) {
    case "items": {
      const n = answer.items.length;
      if (n === 0) return "no answer in the KG";
      const shown = answer.items.slice(0, Math.max(0, limit)).map((i) => formatAnswerItem(i, maxChars));
      const more = n - shown.length;
      if (shown.length === 0) return `${n} item${n === 1 ? "" : "s"} (not shown)`;
      return more > 0 ? `${shown.join("; ")} …and ${more} more` : shown.join("; ");
    }
    case "table": {
      // columns once, then one row per line-part: the model can name every cell and follow-ups can refer to rows
      const n = answer.rows.length;
      const head = `table (${answer.columns.join(" | ")}), ${n} row${n === 1 ? "" : "s"}`;
      if (n === 0) return "no answer in the KG";
      const shown = answer.rows.slice(0, Math.max(0, limit)).map((r) => rowText(r, (c) => formatAnswerItem(c, maxChars)));
      if (shown.length === 0) return `${head} (not shown)`;
      const more = n - shown.length;
      return `${head}: ${shown.join("; ")}${more > 0 ? ` …and ${more} more row${more === 1 ? "" : "s"}` : ""}`;
    }
    case "count":
      return `${answer.count} (a count)`;
    case "boolean":
      return answer.value ? "yes" : "no";
    case "none":
      return "no answer in the KG";
    case "chat":
      return `(conversation reply) ${clip(answer.text, maxChars)}`;
    case "clarify":
      return `(asked the user to clarify) ${clip(answer.text, maxChars)}`;
  }
}

/**
 * Builds Cq as text lines "Qi: …" / "Ai: …". Empty in single-turn mode or when there is no previous turn.
 * Unlike the reference code, answers are included: follow-ups such as "Where was he born?" refer to them.
 */
export function buildDialogueContext(dialogue: readonly DialogueTurn[], options: DialogueContextOptions): string {
  if (options.mode === "single" || dialogue.length === 0) return "";
  const maxChars = options.maxTextChars ?? DEFAULT_TEXT_CHARS;
  return dialogue
    .map((turn, i) => `Q${i + 1}: ${clip(turn.question, 1000)}\nA${i + 1}: ${formatAnswer(turn.answer, options.answerLimit, maxChars)}`)
    .join("\n");
}

/** True when the turn has earlier turns to depend on (multi-turn mode and a non-empty dialogue). */
export function hasDialogueContext(dialogue: readonly DialogueTurn[], mode: PipelineConfig["mode"]): boolean {
  return mode !== "single" && dialogue.length > 0;
}
