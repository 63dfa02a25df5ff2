// Chatty-KG's stage runner: the shared one (lib/pipeline/common/stage-runner.ts) with Chatty-KG's stage summaries.
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { createStageRunner as createSharedRunner, type StageRunner as SharedRunner, type StageSummarizer } from "@/lib/pipeline/common/stage-runner";
import type { ChattyState } from "./state";
import { summarizeStage } from "./stage-summary";

export type StageRunner = SharedRunner<ChattyState>;

/** `summarize`: a re-run marks the step the user decided (rerun.ts); otherwise Chatty-KG's stage summaries. */
export function createStageRunner(initial: ChattyState, ctx: AgentContext, summarize: StageSummarizer<ChattyState> = summarizeStage): StageRunner {
  return createSharedRunner(initial, ctx, summarize);
}
