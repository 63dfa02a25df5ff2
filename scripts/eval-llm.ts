// The eval CLI's model: a provider from the environment, a replay file, or an oracle (one fresh gateway per question).
// Settled before any KG loads, so a missing key or a strategy without an oracle is reported at once.
import { existsSync } from "node:fs";
import { AppError } from "@/lib/errors";
import { llmConfigFromEnv, notConfiguredError, requireLlmConfig } from "@/lib/llm/config";
import { createLlmFromConfig } from "@/lib/llm/create";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import type { LlmGateway } from "@/lib/llm/types";
import { createReplayLlm } from "@/lib/eval/replay-llm";
import { ORACLE_INFO, ORACLE_KIND_LABELS, oracleFor, oracleKindOfArg } from "@/lib/eval/oracles";
import type { OracleKind } from "@/lib/eval/oracle-grounding";

export interface EvalLlm {
  llm: LlmGateway;
  llmInfo: { provider: string; model: string };
  oracleKind?: OracleKind;
}

/**
 * The model for a run of `strategies` over questions of which `anyGoldSparql` says whether one has gold SPARQL (the
 * oracles need it). `usageError` makes the CLI's exit-2 error with its usage text.
 */
export function setupEvalLlm(
  values: { llm?: string; replay?: string },
  strategies: { id: string }[],
  anyGoldSparql: boolean,
  usageError: (message: string) => AppError,
): EvalLlm {
  const oracleKind = oracleKindOfArg(values.llm);
  if (oracleKind) {
    for (const s of strategies) oracleFor(s.id, oracleKind); // a strategy without an oracle is a usage error, reported before the KG loads
    if (!anyGoldSparql) throw usageError(`--llm ${values.llm} needs gold SPARQL in the dataset (none of these questions has any).`);
    console.error(
      oracleKind === "gold-shape"
        ? `note: ${ORACLE_KIND_LABELS[oracleKind]}: every LLM role copies the gold SPARQL's wording and constants (no model); the score is NOT a ceiling of the pipeline.`
        : `note: ${ORACLE_KIND_LABELS[oracleKind]}: every LLM role played from the gold SPARQL, writing only what the question and the tools give (no model): a CEILING of the non-LLM parts, not a model score.`,
    );
    // why: one fresh scripted LLM per question; a gateway with no replies stands in for the run-level one
    return { llm: createScriptedLlm({}).gateway, llmInfo: { ...ORACLE_INFO[oracleKind] }, oracleKind };
  }
  if (values.llm === "replay") {
    if (!values.replay) throw usageError("--llm replay needs --replay <file>.");
    if (!existsSync(values.replay)) throw new AppError("not_found", `Replay file not found: ${values.replay}.`);
    try {
      const replay = createReplayLlm(values.replay);
      return { llm: replay.gateway, llmInfo: { provider: replay.provider, model: replay.model } };
    } catch (e) {
      throw new AppError("bad_request", (e as Error).message, { cause: e });
    }
  }
  const cfg = values.llm ? llmConfigFromEnv({ ...process.env, LLM_PROVIDER: values.llm }) : requireLlmConfig();
  if (!cfg) throw notConfiguredError();
  return { llm: createLlmFromConfig(cfg), llmInfo: { provider: cfg.provider, model: cfg.model } };
}
