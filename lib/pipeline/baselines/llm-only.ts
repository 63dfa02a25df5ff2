// "LLM only" baseline: one validated call, the model answers from its own knowledge; no KG query is ever made.
import { renderPromptPair } from "@/lib/prompts";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { streamEvents } from "@/lib/pipeline/event-stream";
import type { DerivationEvent, Stage, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { buildDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import { validatedCall } from "@/lib/pipeline/common/validated-call";
import { modelAnswerSchema, validateModelAnswer } from "@/lib/pipeline/common/model-answer";
import { failedSummary, startBaselineTurn } from "./baseline-turn";
import { BASELINE_INFO } from "./info";
import type { BaselineState } from "./state";

const STAGE: Stage = "answer";
function summarize(stage: Stage, state: BaselineState): { summary: string; output?: unknown } {
  const failed = failedSummary(stage, state);
  if (failed) return failed;
  return { summary: `From the model's own knowledge (no KG): ${state.answer ? describeAnswer(state.answer) : "no answer"}`, output: state.answer };
}

async function runTurn(input: StrategyInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void): Promise<TurnResult> {
  const { ctx, run, finish } = startBaselineTurn(input, deps, emit, summarize);
  const context = buildDialogueContext(input.dialogue, { answerLimit: input.config.answerLimit, mode: input.config.mode });
  await run.run(STAGE, async (s) => {
    const result = await validatedCall(ctx, {
      stage: STAGE,
      role: "baseline",
      schema: modelAnswerSchema,
      prompt: (feedback) =>
        renderPromptPair("baseline-llm-only", {
          context: context ? `Conversation so far (earlier questions Q and answers A):\n${context}\n\n` : "",
          question: s.question.trim(),
          feedback: feedback ? `\n\n${feedback}` : "",
        }),
      validate: validateModelAnswer,
    });
    if (!result.ok) return { failure: { stage: STAGE, code: "pipeline_failed", message: `The model gave no usable answer: ${result.reason}` } };
    return { answer: result.value };
  });
  return finish("llm");
}

export const llmOnlyStrategy: Strategy = {
  id: "llm-only",
  ...BASELINE_INFO["llm-only"],
  run: (input, deps) => streamEvents((emit) => runTurn(input, deps, emit)),
};
