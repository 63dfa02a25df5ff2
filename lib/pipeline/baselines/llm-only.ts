// "LLM only" baseline: one validated call, the model answers from its own knowledge; no KG query is ever made.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { streamEvents } from "@/lib/pipeline/event-stream";
import type { Answer, DerivationEvent, Stage, Strategy, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import type { ChattyState } from "@/lib/pipeline/chatty-kg/state";
import { buildDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import { failedSummary, startBaselineTurn } from "./baseline-turn";
import { BASELINE_INFO } from "./info";

const STAGE: Stage = "answer";
/** Entries kept from a list answer (the model may enumerate a lot). */
export const MAX_ANSWERS = 200;
/** An entry longer than this is a sentence, not an answer value. */
const MAX_ANSWER_CHARS = 300;

// Models often write numbers and booleans unquoted; accept them and read them as text.
export const llmOnlySchema = z.object({
  answers: z.array(z.union([z.string(), z.number(), z.boolean()])),
  type: z.enum(["list", "count", "boolean"]),
});
export type LlmOnlyReply = z.infer<typeof llmOnlySchema>;

const YES = new Set(["yes", "true", "y"]);
const NO = new Set(["no", "false", "n"]);

/** Maps the reply to an Answer: list → literal items (empty → none), count → number, boolean → yes/no. */
export function validateLlmOnly(reply: LlmOnlyReply): Validation<Answer> {
  const values = reply.answers.map((a) => String(a).replace(/\s+/g, " ").trim());
  if (values.some((v) => v === "")) return { ok: false, reason: '"answers" contains an empty entry' };
  const long = values.find((v) => v.length > MAX_ANSWER_CHARS);
  if (long) return { ok: false, reason: `"${long.slice(0, 60)}…" is a sentence: give the answer values only` };
  if (reply.type === "boolean") {
    const v = values.length === 1 ? values[0].toLowerCase().replace(/[.!]$/, "") : "";
    if (YES.has(v)) return { ok: true, value: { kind: "boolean", value: true } };
    if (NO.has(v)) return { ok: true, value: { kind: "boolean", value: false } };
    return { ok: false, reason: 'type "boolean" needs exactly one entry, "yes" or "no"' };
  }
  if (reply.type === "count") {
    const n = values.length === 1 ? Number(values[0].replace(/[,_\s]/g, "")) : NaN;
    if (!Number.isFinite(n) || n < 0) return { ok: false, reason: 'type "count" needs exactly one entry: a non-negative number in digits' };
    return { ok: true, value: { kind: "count", count: n } };
  }
  const unique = [...new Set(values)].slice(0, MAX_ANSWERS);
  if (unique.length === 0) return { ok: true, value: { kind: "none", reason: "The model did not know the answer." } };
  return { ok: true, value: { kind: "items", items: unique.map((value) => ({ type: "literal" as const, value })) } };
}

function summarize(stage: Stage, state: ChattyState): { summary: string; output?: unknown } {
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
      schema: llmOnlySchema,
      prompt: (feedback) =>
        renderPromptPair("baseline-llm-only", {
          context: context ? `Conversation so far (earlier questions Q and answers A):\n${context}\n\n` : "",
          question: s.question.trim(),
          feedback: feedback ? `\n\n${feedback}` : "",
        }),
      validate: validateLlmOnly,
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
