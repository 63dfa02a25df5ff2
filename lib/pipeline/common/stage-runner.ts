// Runs one agent as a named stage: emits stage-start/stage-end with timing and a one-line summary, merges its patch.
// Generic over the strategy's state; each strategy passes its own stage summaries.
import { toAppError } from "@/lib/errors";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "./agent-context";

export interface StageFailure {
  stage: Stage;
  code: string;
  message: string;
}

/** One line (and the relevant slice of state) describing a finished stage, for the derivation panel and the CLI. */
export type StageSummarizer<S> = (stage: Stage, state: S) => { summary: string; output?: unknown };

export interface StageRunner<S extends { failure?: StageFailure }> {
  readonly state: S;
  /** Runs `agent` as `stage`; an AppError thrown inside becomes `state.failure` at that stage. */
  run(stage: Stage, agent: (state: S) => Promise<Partial<S>>): Promise<void>;
  /** Merges facts learned outside an agent (e.g. the Chat agent's tool arguments). */
  patch(update: Partial<S>): void;
  /** Records that a stage was not needed (shown in the derivation, costs nothing). */
  skip(stage: Stage, why: string): void;
  /** ms spent per stage, excluding time spent in stages nested inside it */
  readonly stageMs: Partial<Record<Stage, number>>;
}

export function createStageRunner<S extends { failure?: StageFailure }>(initial: S, ctx: AgentContext, summarize: StageSummarizer<S>): StageRunner<S> {
  let state = initial;
  const stageMs: Partial<Record<Stage, number>> = {};
  // The Chat agent's KG tool runs the other stages inside its own call: count nested time once.
  const open: { nested: number }[] = [];

  return {
    get state() {
      return state;
    },
    stageMs,
    async run(stage, agent) {
      const started = ctx.now();
      const frame = { nested: 0 };
      open.push(frame);
      ctx.emit({ type: "stage-start", stage, at: Date.now() });
      try {
        const patch = await agent(state);
        state = { ...state, ...patch };
      } catch (e) {
        const err = toAppError(e);
        if (err.code === "aborted") throw err;
        state = { ...state, failure: { stage, code: err.code, message: err.message } };
      } finally {
        open.pop();
      }
      const total = ctx.now() - started;
      const own = Math.max(0, total - frame.nested);
      if (open.length > 0) open[open.length - 1].nested += total;
      stageMs[stage] = (stageMs[stage] ?? 0) + own;
      const { summary, output } = summarize(stage, state);
      ctx.emit({ type: "stage-end", stage, at: Date.now(), ms: own, summary, output });
    },
    patch(update) {
      state = { ...state, ...update };
    },
    skip(stage, why) {
      const at = Date.now();
      ctx.emit({ type: "stage-end", stage, at, ms: 0, summary: why, skipped: true });
    },
  };
}
