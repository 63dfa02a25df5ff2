// Re-runs a turn of any SPARQL-writing strategy with the final query the user edited: the query passes the same guard
// as a model-written one (read-only, SELECT/ASK, no SERVICE, rows capped), runs once, and answers through the shared
// converter. No LLM call: the user wrote the query.
import { AppError, toAppError } from "@/lib/errors";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { describeCorrection, USER_CHOICE_TOOL, type Correction, type CorrectionKind } from "@/lib/pipeline/corrections";
import { streamEvents } from "@/lib/pipeline/event-stream";
import type { Answer, DerivationEvent, RerunInput, Strategy, StrategyDeps, StrategyRerun, TurnResult } from "@/lib/pipeline/types";
import { createAgentContext } from "./agent-context";
import { answerFromResult } from "./answer-from-result";
import { guardReply, type GuardedQuery } from "./query-reply";
import { createStageRunner, type StageFailure } from "./stage-runner";
import { turnStats } from "./turn-stats";

interface FinalQueryState {
  executed?: { sparql: string; rows: number }[];
  answer?: Answer;
  failure?: StageFailure;
}

/** The edited query as it will run, or a bad_request saying why it cannot. */
export function guardEditedQuery(correction: Correction, prefixes: Record<string, string>, rowLimit: number): GuardedQuery {
  if (correction.kind !== "final-query") throw new AppError("bad_request", "This turn can only be re-run with an edited final query.");
  // the editor's text as is (a fenced block is the model's format, not the user's)
  const guarded = guardReply(`\`\`\`sparql\n${correction.query.replace(/```/g, "")}\n\`\`\``, prefixes, rowLimit);
  if (!guarded.ok) throw new AppError("bad_request", `The edited query cannot run: ${guarded.reason.replace(/^the query was refused: /, "")}.`);
  return guarded.value;
}

async function rerunWithQuery(input: RerunInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void): Promise<TurnResult> {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  const query = guardEditedQuery(input.correction, deps.kg.profile.prefixes, input.config.rowLimit);
  const run = createStageRunner<FinalQueryState>({}, ctx, (_stage, s) =>
    s.failure
      ? { summary: `Failed: ${s.failure.message}`, output: s.failure }
      : { summary: `Your query: ${s.executed?.[0]?.rows ?? 0} row(s) support the answer: ${s.answer ? describeAnswer(s.answer) : "none"}`, output: s.executed },
  );
  await run.run("execution", async () => {
    ctx.emit({ type: "tool-call", stage: "execution", tool: USER_CHOICE_TOOL, input: input.correction, output: describeCorrection(input.correction) });
    try {
      const result = await ctx.sparql("execution", "the edited query", query.sparql);
      const { answer, rows } = await answerFromResult(result, ctx, { aggregate: query.aggregate, rowLimit: query.kind === "SELECT" ? input.config.rowLimit : undefined });
      return { answer, executed: [{ sparql: query.sparql, rows }] };
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "aborted") throw err;
      return { executed: [{ sparql: query.sparql, rows: 0 }], failure: { stage: "execution", code: err.code, message: `The edited query failed: ${err.message}` } };
    }
  });
  const stats = turnStats(events, run.stageMs, ctx.now() - started);
  const { answer, failure, executed = [] } = run.state;
  const sparql = executed.filter((q) => q.rows > 0).map((q) => q.sparql);
  if (failure) return { answer: { kind: "none", reason: failure.message }, source: "failed", sparql, error: failure, stats };
  const final = answer ?? { kind: "none" as const, reason: "The KG returned nothing for the query." };
  return { answer: final, source: final.kind === "none" ? "none" : "kg", sparql, stats };
}

/** The re-run every strategy offers: its final query, edited by the user. */
export const finalQueryRerun: StrategyRerun = {
  kinds: ["final-query"],
  check: (input) => {
    // the KG's prefixes are not known here: an undeclared prefix is reported when the re-run starts
    if (input.correction.kind !== "final-query") throw new AppError("bad_request", "This turn can only be re-run with an edited final query.");
  },
  run: (input, deps) => streamEvents((emit) => rerunWithQuery(input, deps, emit)),
};

/** Who re-runs a correction of `kind` for `strategy`: its own re-run, or (an edited final query) this one. */
export function rerunFor(strategy: Strategy, kind: CorrectionKind): StrategyRerun {
  if (strategy.rerun?.kinds.includes(kind)) return strategy.rerun;
  if (kind === "final-query") return finalQueryRerun;
  throw new AppError("bad_request", `${strategy.label} cannot re-run a turn from this step; edit its final query in the SPARQL panel instead.`);
}
