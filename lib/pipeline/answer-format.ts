// Plain-text renderings of an answer, shared by the CLI, the dialogue context and stage summaries.
import type { Answer, AnswerItem, TurnResult } from "./types";

/** How every view (chat, derivation, export, evaluation) marks an answer from the model's own knowledge. */
export const NOT_FROM_KG = "not from the KG";
export const MODEL_KNOWLEDGE_NOTE = `From the model's own knowledge, ${NOT_FROM_KG}`;

/** True for an answer the model gave from its own knowledge (source "llm"): never a KG fact. */
export function isModelKnowledge(source: TurnResult["source"] | null | undefined): boolean {
  return source === "llm";
}

export function itemText(item: AnswerItem): string {
  if (item.type === "uri") return item.label ?? item.value;
  return item.lang ? `${item.value} (${item.lang})` : item.value;
}

/** One table row as text: cells separated by " | ", an unbound cell as "—". */
export function rowText(row: (AnswerItem | null)[], cell: (item: AnswerItem) => string = itemText): string {
  return row.map((c) => (c ? cell(c) : "—")).join(" | ");
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** A short human description, e.g. "3 items: A, B, C", "2 rows × 3 columns (name, email, phone): …", "count 8", "yes". */
export function describeAnswer(answer: Answer, maxItems = 5): string {
  switch (answer.kind) {
    case "items": {
      const shown = answer.items.slice(0, maxItems).map(itemText).join(", ");
      const more = answer.items.length > maxItems ? `, … (${answer.items.length - maxItems} more)` : "";
      return `${answer.items.length} item${answer.items.length === 1 ? "" : "s"}: ${shown}${more}`;
    }
    case "table": {
      const shown = answer.rows.slice(0, maxItems).map((r) => rowText(r)).join("; ");
      const more = answer.rows.length > maxItems ? `; … (${answer.rows.length - maxItems} more)` : "";
      return `${plural(answer.rows.length, "row")} × ${plural(answer.columns.length, "column")} (${answer.columns.join(", ")})${shown ? `: ${shown}` : ""}${more}`;
    }
    case "count":
      return `count ${answer.count}`;
    case "boolean":
      return answer.value ? "yes" : "no";
    case "none":
      return `no answer in the KG (${answer.reason})`;
    case "chat":
    case "clarify":
      return answer.text;
  }
}
