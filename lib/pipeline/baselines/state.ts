// The state of one baseline turn: the question, what the model wrote and ran, the answer. The baselines have no agents
// of their own beyond one model call (and the one-shot query's retries), so this is all they keep.
import type { Answer, DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";
import type { ExecutedQuery } from "@/lib/pipeline/common/state";
import type { StageFailure } from "@/lib/pipeline/common/stage-runner";

export interface BaselineState {
  question: string;
  dialogue: DialogueTurn[];
  config: PipelineConfig;
  /** the model-written queries that ran (one-shot SPARQL), with rows or the error */
  executed?: ExecutedQuery[];
  answer?: Answer;
  failure?: StageFailure;
}
