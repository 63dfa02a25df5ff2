// Replays a system's own SPARQL per question (`--queries`) in place of a strategy: the query runs as given (read-only
// guard applies, no LIMIT added), and its result becomes the answer through the shared converter. A query our parser
// or engine rejects, a missing one, or a CONSTRUCT/DESCRIBE is an empty result with its error recorded.
import type sparqljs from "sparqljs";
import { toAppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { streamEvents } from "@/lib/pipeline/event-stream";
import { describeAnswer } from "@/lib/pipeline/answer-format";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { answerFromResult, projectsAggregate } from "@/lib/pipeline/common/answer-from-result";
import { turnStats } from "@/lib/pipeline/common/turn-stats";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";
import type { EvalStrategy } from "./runner";

export const REPLAY_STRATEGY_ID = "query-replay";

/** A strategy that answers each benchmark item with the query `queries` holds for its id. */
export function createQueryReplayStrategy(queries: Map<string, string>, label: string): EvalStrategy {
  return {
    id: REPLAY_STRATEGY_ID,
    label,
    run: (input, deps) =>
      streamEvents<DerivationEvent, TurnResult>(async (emit) => {
        const events: DerivationEvent[] = [];
        const record = (e: DerivationEvent) => (events.push(e), emit(e));
        const ctx = createAgentContext({ ...deps, config: input.config, signal: input.signal, emit: record });
        const started = ctx.now();
        record({ type: "stage-start", stage: "execution", at: started });
        const end = (summary: string, result: Omit<TurnResult, "stats">): TurnResult => {
          const ms = ctx.now() - started;
          record({ type: "stage-end", stage: "execution", at: ctx.now(), ms, summary });
          return { ...result, stats: turnStats(events, { execution: ms }, ms) };
        };
        const empty = (code: string, message: string, sparql: string[]): TurnResult =>
          end(`No result: ${message}`, { answer: { kind: "none", reason: message }, source: "failed", sparql, error: { code, message, stage: "execution" } });

        const sparql = queries.get(input.item.id);
        if (sparql === undefined) return empty("not_found", "the queries file has no query for this question", []);
        if (!sparql.trim()) return empty("bad_request", "the system gave an empty query", []);
        try {
          // as the guard runs it: undeclared well-known prefixes (rdfs:, xsd:, …) declared, as the official endpoint did
          const parsed = parseReadOnly(sparql);
          if (parsed.kind !== "SELECT" && parsed.kind !== "ASK") return empty("bad_request", `a ${parsed.kind} query has no SELECT/ASK result`, [sparql]);
          const result = await ctx.sparql("execution", "replayed query", parsed.query);
          const aggregate = parsed.kind === "SELECT" && projectsAggregate(parsed.ast as sparqljs.SelectQuery);
          const { answer } = await answerFromResult(result, ctx, { aggregate });
          return end(`Replayed query: ${describeAnswer(answer, 3)}`, { answer, source: answer.kind === "none" ? "none" : "kg", sparql: [parsed.query] });
        } catch (e) {
          const err = toAppError(e);
          if (err.code === "aborted" && input.signal?.aborted) throw err;
          return empty(err.code, err.message, [sparql]);
        }
      }),
  };
}
