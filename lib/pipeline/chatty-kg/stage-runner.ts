// Runs one agent as a named stage: emits stage-start/stage-end with timing and a one-line summary, merges its patch.
import { toAppError } from "@/lib/errors";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { ChattyState } from "./state";
import { summarizeStage } from "./stage-summary";

export interface StageRunner {
  readonly state: ChattyState;
  /** Runs `agent` as `stage`; an AppError thrown inside becomes `state.failure` at that stage. */
  run(stage: Stage, agent: (state: ChattyState) => Promise<Partial<ChattyState>>): Promise<void>;
  /** Merges facts learned outside an agent (e.g. the Chat agent's tool arguments). */
  patch(update: Partial<ChattyState>): void;
  /** Records that a stage was not needed (shown in the derivation, costs nothing). */
  skip(stage: Stage, why: string): void;
  /** ms spent per stage, excluding time spent in stages nested inside it */
  readonly stageMs: Partial<Record<Stage, number>>;
}

export function createStageRunner(initial: ChattyState, ctx: AgentContext): StageRunner {
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
      const { summary, output } = summarizeStage(stage, state);
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
