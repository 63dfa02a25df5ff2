// Shared scaffolding of the benchmark baselines: Chatty-KG's agent context and stage runner, baseline stage summaries, the TurnResult.
import type { DerivationEvent, Stage, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { createStageRunner, type StageRunner } from "@/lib/pipeline/chatty-kg/stage-runner";
import type { ChattyState } from "@/lib/pipeline/chatty-kg/state";
import { buildTurnResult } from "@/lib/pipeline/chatty-kg/turn-result";

/** A baseline's own one-line summary of a stage (Chatty-KG's summaries describe its own agents, not these). */
export type BaselineSummary = (stage: Stage, state: ChattyState) => { summary: string; output?: unknown };

export interface BaselineTurn {
  ctx: AgentContext;
  run: StageRunner;
  /** Folds the state into the TurnResult; `answered` is the source of a non-empty answer ("kg" or "llm"). */
  finish(answered: "kg" | "llm"): TurnResult;
}

export function startBaselineTurn(
  input: StrategyInput,
  deps: StrategyDeps,
  emit: (event: DerivationEvent) => void,
  summarize: BaselineSummary,
): BaselineTurn {
  const events: DerivationEvent[] = [];
  // the runner needs the context and the context's emit needs the runner's state: tie the knot through a holder
  const holder: { runner?: StageRunner } = {};
  const record = (event: DerivationEvent) => {
    // The runner computes its summary from Chatty-KG's stage descriptions; replace it with the baseline's own.
    const out = event.type === "stage-end" && !event.skipped && holder.runner ? { ...event, ...summarize(event.stage, holder.runner.state) } : event;
    events.push(out);
    emit(out);
  };
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: record });
  const started = ctx.now();
  const run = createStageRunner({ question: input.question, dialogue: input.dialogue, config: input.config }, ctx);
  holder.runner = run;
  return {
    ctx,
    run,
    finish(answered) {
      const result = buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
      return result.source === "kg" ? { ...result, source: answered } : result;
    },
  };
}

/** "Failed: …" when the stage failed, else undefined. */
export function failedSummary(stage: Stage, state: ChattyState): { summary: string; output?: unknown } | undefined {
  return state.failure?.stage === stage ? { summary: `Failed: ${state.failure.message}`, output: state.failure } : undefined;
}
