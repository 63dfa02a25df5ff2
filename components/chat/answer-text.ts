// The whole answer of a turn as plain text, for its one Copy action: the values (a table as tab-separated rows), the
// sentence answer when there is one, and a note when the answer is from the model's own knowledge.
import type { TurnResult } from "@/lib/pipeline/types";
import { isModelKnowledge, itemText, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { tableText } from "./table-data";

export function answerText(result: Pick<TurnResult, "answer" | "naturalAnswer" | "source">): string {
  const a = result.answer;
  let body: string;
  switch (a.kind) {
    case "items":
      body = a.items.map(itemText).join("\n");
      break;
    case "table":
      body = tableText(a.columns, a.rows, "tsv");
      break;
    case "count":
      body = String(a.count);
      break;
    case "boolean":
      body = a.value ? "Yes" : "No";
      break;
    case "none":
      body = `The KG has no answer${a.reason ? `: ${a.reason}` : "."}`;
      break;
    case "chat":
    case "clarify":
      body = a.text;
      break;
  }
  const parts = [body.trimEnd()];
  if (result.naturalAnswer) parts.push(result.naturalAnswer.trim());
  if (isModelKnowledge(result.source)) parts.push(`(${MODEL_KNOWLEDGE_NOTE})`);
  return parts.filter(Boolean).join("\n\n");
}
