// What every agent gets besides the state: its dependencies and the ways it reports to the derivation trace.
import type { KnowledgeGraph, QueryResult } from "@/lib/kg/types";
import type { LlmCallInput, LlmCallResult, LlmGateway } from "@/lib/llm/types";
import type { Similarity } from "@/lib/embeddings/types";
import type { DerivationEvent, PipelineConfig, Stage } from "@/lib/pipeline/types";
import { toAppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";

export interface AgentContext {
  kg: KnowledgeGraph;
  llm: LlmGateway;
  similarity: Similarity;
  config: PipelineConfig;
  signal?: AbortSignal;
  now: () => number;
  emit: (event: DerivationEvent) => void;
  /** Calls the LLM and reports the call (with its validation outcome) to the trace under `stage`. */
  callLlm<T>(stage: Stage, input: LlmCallInput<T>): Promise<LlmCallResult<T>>;
  /**
   * Runs a read-only query on the KG and reports it (time, rows, error) to the trace as it ran (well-known prefixes
   * declared). Throws AppError on failure.
   */
  sparql(stage: Stage, purpose: string, query: string): Promise<QueryResult>;
}

export function rowCount(result: QueryResult): number {
  if (result.kind === "SELECT") return result.results.bindings.length;
  if (result.kind === "ASK") return 1;
  return result.triples.length;
}

/** The query as the KG's guard runs it (a refused query is reported as written; the guard's parse is cached). */
function asRun(query: string): string {
  try {
    return parseReadOnly(query).query;
  } catch {
    return query;
  }
}

export function createAgentContext(deps: {
  kg: KnowledgeGraph;
  llm: LlmGateway;
  similarity: Similarity;
  config: PipelineConfig;
  signal?: AbortSignal;
  now?: () => number;
  emit: (event: DerivationEvent) => void;
}): AgentContext {
  const now = deps.now ?? (() => performance.now());
  const ctx: AgentContext = {
    ...deps,
    now,
    async callLlm(stage, input) {
      const result = await deps.llm.call({ signal: deps.signal, ...input });
      deps.emit({ type: "llm-call", stage, call: result.record });
      return result;
    },
    async sparql(stage, purpose, written) {
      const started = now();
      const query = asRun(written);
      try {
        const result = await deps.kg.query(query, { signal: deps.signal, timeoutMs: deps.config.queryTimeoutMs });
        deps.emit({ type: "sparql", stage, purpose, query, ms: now() - started, rows: rowCount(result) });
        return result;
      } catch (e) {
        const err = toAppError(e);
        deps.emit({ type: "sparql", stage, purpose, query, ms: now() - started, rows: 0, error: err.message });
        throw err;
      }
    },
  };
  return ctx;
}
