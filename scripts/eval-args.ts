// The eval CLI's scoring and replay flags (--scoring, --value-comparison, --row-limit, --queries, --official-eval),
// checked and resolved to their defaults; a bad value is an AppError("bad_request") naming the flag.
import { existsSync } from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { defaultScoring, SCORINGS, type Scoring } from "@/lib/eval/scoring";
import { VALUE_COMPARISONS, type ValueComparison } from "@/lib/eval/text2sparql-metrics";

/**
 * Rows a generated or model-written SELECT may return during an evaluation run: far above any gold (CK25's largest is
 * 1,647 values), so no answer is cut; a question that still reaches it is recorded and printed.
 */
export const EVAL_ROW_LIMIT = 1_000_000;

export const SCORING_OPTIONS = {
  scoring: { type: "string" },
  "value-comparison": { type: "string" },
  "row-limit": { type: "string" },
  queries: { type: "string" },
  "official-eval": { type: "string" },
} as const;

export const SCORING_USAGE = `  --scoring <s>          text2sparql (default for ck25/text2sparql: the official TEXT2SPARQL scorer) | items (default otherwise)
  --value-comparison <c> text2sparql scoring: exact (default, the official value strings) | numeric ("3" = "3.0")
  --row-limit <n>        rows a generated SELECT may return (default ${EVAL_ROW_LIMIT.toLocaleString("en")}; the app keeps 1,000)
  --queries <file>       replay these SPARQL queries per question instead of a strategy (TEXT2SPARQL answers
                         [{qname, query}] or {"<id>": "<sparql>"}); no LLM needed
  --official-eval <file> with --queries: the system's published evaluation to compare with
                         (default: <prefix>_eval.json beside a <prefix>_answers.json)`;

export interface ScoringArgs {
  scoring: Scoring;
  valueComparison: ValueComparison;
  rowLimit: number;
  queries?: string;
  officialEval?: string;
}

type Values = Partial<Record<keyof typeof SCORING_OPTIONS, string>>;

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new AppError("bad_request", `--${flag} must be ${allowed.join(" or ")} (got "${value}").`);
}

/** The published evaluation beside a TEXT2SPARQL answers file (`…/ck25_answers.json` → `…/ck25_eval.json`), if present. */
export function officialEvalBeside(queriesFile: string): string | undefined {
  const base = path.basename(queriesFile);
  if (!/_answers\.json$/i.test(base)) return undefined;
  const candidate = path.join(path.dirname(queriesFile), base.replace(/_answers\.json$/i, "_eval.json"));
  return existsSync(candidate) ? candidate : undefined;
}

export function parseScoringArgs(values: Values, dataset: string): ScoringArgs {
  const scoring = values.scoring === undefined ? defaultScoring(dataset) : oneOf("scoring", values.scoring, SCORINGS);
  const valueComparison = values["value-comparison"] === undefined ? "exact" : oneOf("value-comparison", values["value-comparison"], VALUE_COMPARISONS);
  if (values["value-comparison"] !== undefined && scoring !== "text2sparql") throw new AppError("bad_request", "--value-comparison applies to --scoring text2sparql only.");
  let rowLimit = EVAL_ROW_LIMIT;
  if (values["row-limit"] !== undefined) {
    const n = Number(values["row-limit"]);
    if (!Number.isInteger(n) || n < 1 || n > 100_000_000) throw new AppError("bad_request", `--row-limit must be an integer from 1 to 100000000 (got "${values["row-limit"]}").`);
    rowLimit = n;
  }
  const queries = values.queries;
  if (queries !== undefined && !existsSync(queries)) throw new AppError("not_found", `Queries file not found: ${queries}.`);
  if (values["official-eval"] !== undefined && queries === undefined) throw new AppError("bad_request", "--official-eval needs --queries (it compares a replay with its published scores).");
  if (values["official-eval"] !== undefined && !existsSync(values["official-eval"])) throw new AppError("not_found", `Official evaluation file not found: ${values["official-eval"]}.`);
  const officialEval = values["official-eval"] ?? (queries ? officialEvalBeside(queries) : undefined);
  return { scoring, valueComparison, rowLimit, ...(queries ? { queries } : {}), ...(officialEval ? { officialEval } : {}) };
}
