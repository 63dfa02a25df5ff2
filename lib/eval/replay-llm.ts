// `--llm replay --replay <file>`: an offline model answering from a JSON file keyed by role and question (benchmarks, tests, demos).
import path from "node:path";
import { createReplayResponder } from "@/lib/llm/testing/replies";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { LlmGateway } from "@/lib/llm/types";

export interface ReplayLlm {
  gateway: LlmGateway;
  provider: "replay";
  model: string;
}

/** Every call is answered by the first matching `{ role?, question?, reply }` entry; a missing reply fails that call. */
export function createReplayLlm(file: string): ReplayLlm {
  const llm = createScriptedLlm({}, { fallback: createReplayResponder(file) });
  return { gateway: llm.gateway, provider: "replay", model: path.basename(file) };
}
