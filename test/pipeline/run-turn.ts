// One turn through chattyKgStrategy.run (runTurn, from lib/eval/ck25-scripted.ts) and the answer as a sorted value list.
import type { TurnResult } from "@/lib/pipeline/types";

export { runTurn, type TurnRun } from "@/lib/eval/ck25-scripted";

/** Answer values as a sorted list (IRIs and literal lexical forms). */
export function answerValues(result: TurnResult): string[] {
  return result.answer.kind === "items" ? result.answer.items.map((i) => i.value).sort() : [];
}
