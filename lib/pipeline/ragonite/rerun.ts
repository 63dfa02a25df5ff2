// RAGONITE re-run with the SQL the user edited in the query panel: the KG's induced database (from the cache), the
// same guard as the model's SQL (one read-only SELECT), the rows read as the answer exactly as the answer agent reads a
// result it points at (every item citing its row). No model call: the user wrote the query.
import { AppError, toAppError } from "@/lib/errors";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { createStageRunner } from "@/lib/pipeline/common/stage-runner";
import { describeCorrection, USER_CHOICE_TOOL } from "@/lib/pipeline/corrections";
import type { DerivationEvent, RerunInput, StrategyDeps, StrategyRerun, TurnResult } from "@/lib/pipeline/types";
import { answerFromSqlEvidence } from "./answer-agent";
import { emptyEvidence, type SqlEvidence } from "./evidence";
import type { KnowledgeCache, RagoniteKnowledge } from "./knowledge";
import { checkSql } from "./induced-db";
import { prepareKnowledge } from "./prepare-knowledge";
import { normalizeSql } from "./sql-guard";
import { summarizeStage } from "./stage-summary";
import type { RagoniteState } from "./state";
import { buildTurnResult } from "./turn-result";

function editedSql(input: Pick<RerunInput, "correction">): string {
  if (input.correction.kind !== "final-query") throw new AppError("bad_request", "A RAGONITE turn can only be re-run with an edited SQL query.");
  return normalizeSql(input.correction.query);
}

/** A query that is not one SELECT (or not SQL at all) is a bad request, before a new attempt is stored. */
async function checkEditedSql(input: Pick<RerunInput, "correction">): Promise<void> {
  try {
    await checkSql(editedSql(input));
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "bad_request" || err.code === "internal") throw err;
    throw new AppError("bad_request", `The edited SQL query cannot run: ${err.message}`);
  }
}

async function rerunTurn(input: RerunInput, deps: StrategyDeps, emit: (e: DerivationEvent) => void, cache: KnowledgeCache): Promise<TurnResult> {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: (e) => (events.push(e), emit(e)) });
  const started = ctx.now();
  const sql = editedSql(input);
  const run = createStageRunner<RagoniteState>({ question: input.question, dialogue: input.dialogue, config: input.config, route: "kg", rounds: 0 }, ctx, summarizeStage);
  let knowledge: RagoniteKnowledge | undefined;
  await run.run("induction", async (s) => {
    const prepared = await prepareKnowledge(s, ctx, cache, deps.similarity);
    knowledge = prepared.knowledge;
    return prepared.patch;
  });
  const k = knowledge;
  if (!k || run.state.failure) return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
  const evidence = emptyEvidence();
  const e: SqlEvidence = { id: "S1", round: 0, sql };
  await run.run("retrieval", async () => {
    ctx.emit({ type: "tool-call", stage: "retrieval", tool: USER_CHOICE_TOOL, input: input.correction, output: describeCorrection(input.correction) });
    evidence.sql.push(e);
    try {
      e.result = await k.db.query(sql, { timeoutMs: ctx.config.queryTimeoutMs, maxRows: ctx.config.rowLimit, signal: ctx.signal });
      return { evidence };
    } catch (err) {
      const appErr = toAppError(err);
      if (appErr.code === "aborted") throw appErr;
      e.error = appErr.message;
      return { evidence, failure: { stage: "retrieval", code: appErr.code, message: `The edited SQL query failed: ${appErr.message}` } };
    }
  });
  if (!run.state.failure) await run.run("answer", async () => ({ answer: await answerFromSqlEvidence(e, evidence, ctx, k) }));
  return buildTurnResult(run.state, events, run.stageMs, ctx.now() - started);
}

/** RAGONITE's final query is SQL over its induced database: an edited one re-runs the turn here. */
export function createSqlRerun(cache: KnowledgeCache): StrategyRerun {
  return {
    kinds: ["final-query"],
    check: checkEditedSql,
    run: (input, deps) => streamEvents((emit) => rerunTurn(input, deps, emit, cache)),
  };
}
