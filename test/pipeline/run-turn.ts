// Runs one turn through chattyKgStrategy.run (the real wiring) and collects the derivation events and the result.
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { Similarity } from "@/lib/embeddings/types";
import type { LlmGateway } from "@/lib/llm/types";
import { chattyKgStrategy } from "@/lib/pipeline/chatty-kg/strategy";
import type { DerivationEvent, DialogueTurn, PipelineConfig, TurnResult } from "@/lib/pipeline/types";

export interface TurnRun {
  result: TurnResult;
  events: DerivationEvent[];
}

export async function runTurn(
  question: string,
  dialogue: DialogueTurn[],
  config: PipelineConfig,
  deps: { kg: KnowledgeGraph; llm: LlmGateway; similarity: Similarity; now?: () => number },
): Promise<TurnRun> {
  const events: DerivationEvent[] = [];
  const gen = chattyKgStrategy.run({ question, dialogue: [...dialogue], config }, deps);
  let next = await gen.next();
  while (!next.done) {
    events.push(next.value);
    next = await gen.next();
  }
  return { result: next.value, events };
}

/** Answer values as a sorted list (IRIs and literal lexical forms). */
export function answerValues(result: TurnResult): string[] {
  return result.answer.kind === "items" ? result.answer.items.map((i) => i.value).sort() : [];
}
