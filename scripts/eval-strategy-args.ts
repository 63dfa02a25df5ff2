// The eval CLI's strategy flags: one or several strategies per run (--strategy a,b), and the parameters of the
// strategies that have their own (Triad's N, K, K, T; the model-knowledge switch), checked like the rest.
import path from "node:path";
import { AppError } from "@/lib/errors";
import { pipelineConfigSchema, STRATEGY_IDS, type PipelineConfig, type StrategyId } from "@/lib/pipeline/types";

export const STRATEGY_OPTIONS = {
  strategy: { type: "string", default: "chatty-kg" },
  "triad-examples": { type: "string" },
  "triad-entity-k": { type: "string" },
  "triad-relation-k": { type: "string" },
  "triad-retries": { type: "string" },
  "allow-model-knowledge": { type: "boolean", default: false },
} as const;

export const STRATEGY_USAGE = `  --strategy <id[,id…]>  ${STRATEGY_IDS.join(" | ")} (default chatty-kg); several, comma-separated, run one after the
                         other on the same questions, KG and model, one result each (in <--out>-<id> when --out is given)
  --triad-examples <N> --triad-entity-k <K> --triad-relation-k <K> --triad-retries <T>   Triad's parameters (3, 2, 2, 3)
  --allow-model-knowledge  when the KG has no answer, a strategy that can (Triad) answers from the model's own knowledge;
                         such answers are labelled "not from the KG" and scored apart from the KG-grounded scores`;

type Values = { strategy?: string } & Partial<Record<"triad-examples" | "triad-entity-k" | "triad-relation-k" | "triad-retries", string>> & { "allow-model-knowledge"?: boolean };

/** The strategies to run, in the order given, each once; an unknown id names the known ones. */
export function strategyIdsFromArg(arg: string | undefined): StrategyId[] {
  const ids = [...new Set((arg ?? "chatty-kg").split(",").map((s) => s.trim()).filter(Boolean))];
  if (ids.length === 0) throw new AppError("bad_request", "--strategy needs at least one strategy id.");
  for (const id of ids) {
    if (!(STRATEGY_IDS as readonly string[]).includes(id)) throw new AppError("bad_request", `Unknown strategy "${id}". Available: ${STRATEGY_IDS.join(", ")}.`);
  }
  return ids as StrategyId[];
}

/** Strategy-specific pipeline parameters from the flags (undefined = the default), range-checked by the config schema. */
export function strategyConfigFromArgs(values: Values): Partial<PipelineConfig> {
  const int = (flag: keyof Values) => {
    const v = values[flag];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!Number.isInteger(n)) throw new AppError("bad_request", `--${flag} must be an integer (got "${v}").`);
    return n;
  };
  const partial = {
    triadExamples: int("triad-examples"),
    triadEntityCandidates: int("triad-entity-k"),
    triadRelationCandidates: int("triad-relation-k"),
    triadRetries: int("triad-retries"),
    allowModelKnowledge: values["allow-model-knowledge"] ? true : undefined,
  };
  const given = Object.fromEntries(Object.entries(partial).filter(([, v]) => v !== undefined)) as Partial<PipelineConfig>;
  // the config schema holds the ranges; the defaults it fills in are not returned
  const checked = pipelineConfigSchema.safeParse(given);
  if (!checked.success) {
    const flagOf: Record<string, string> = { triadExamples: "triad-examples", triadEntityCandidates: "triad-entity-k", triadRelationCandidates: "triad-relation-k", triadRetries: "triad-retries" };
    const issue = checked.error.issues[0];
    throw new AppError("bad_request", `--${flagOf[String(issue.path[0])] ?? String(issue.path[0])}: ${issue.message}.`);
  }
  return given;
}

/**
 * Where each strategy's run goes: --out itself for one strategy, "<--out>-<id>" beside it for several (sibling folders,
 * so the evaluation page lists each run); without --out, the runs folder under each run's own id.
 */
export function outDirFor(strategy: string, runId: string, out: string | undefined, several: boolean, runsDir: string): string {
  if (!out) return path.resolve(runsDir, runId);
  return path.resolve(several ? `${out.replace(/[\\/]+$/, "")}-${strategy}` : out);
}
