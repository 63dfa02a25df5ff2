// Shared scaffolding of the benchmark baselines: the agent context, the stage runner with the baseline's own stage
// summaries, and the TurnResult (lib/pipeline/common).
import type { DerivationEvent, Stage, StrategyDeps, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { createStageRunner, type StageRunner } from "@/lib/pipeline/common/stage-runner";
import { buildTurnResult } from "@/lib/pipeline/common/turn-result";
import type { BaselineState } from "./state";

/** A baseline's one-line summary of a stage. */
export type BaselineSummary = (stage: Stage, state: BaselineState) => { summary: string; output?: unknown };

export interface BaselineTurn {
  ctx: AgentContext;
  run: StageRunner<BaselineState>;
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
  const record = (event: DerivationEvent) => {
    events.push(event);
    emit(event);
  };
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: record });
  const started = ctx.now();
  const run = createStageRunner<BaselineState>({ question: input.question, dialogue: input.dialogue, config: input.config }, ctx, summarize);
  return {
    ctx,
    run,
    finish(answered) {
      // the queries that returned rows support the answer (a failed or empty attempt does not)
      const sparql = (run.state.executed ?? []).filter((q) => q.rows > 0).map((q) => q.sparql);
      return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started, { sparql, answeredBy: answered });
    },
  };
}

/** "Failed: …" when the stage failed, else undefined. */
export function failedSummary(stage: Stage, state: BaselineState): { summary: string; output?: unknown } | undefined {
  return state.failure?.stage === stage ? { summary: `Failed: ${state.failure.message}`, output: state.failure } : undefined;
}
