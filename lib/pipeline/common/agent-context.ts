// What every agent gets besides the state: its dependencies and the ways it reports to the derivation trace.
import type { KnowledgeGraph, QueryResult } from "@/lib/kg/types";
import type { LlmCallInput, LlmCallResult, LlmGateway } from "@/lib/llm/types";
import type { Similarity } from "@/lib/embeddings/types";
import type { DerivationEvent, KgNotesSource, PipelineConfig, Stage } from "@/lib/pipeline/types";
import { toAppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { LabelHit, LabelSearchOptions } from "@/lib/kg/types";
import { createKgBudget, type KgBudget, type KgBudgetLimits } from "./kg-budget";

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
  sparql(stage: Stage, purpose: string, query: string, options?: SparqlCallOptions): Promise<QueryResult>;
  /** Searches the KG's labels within the turn's KG budget (the search's own timeout capped by what is left). */
  searchLabels(stage: Stage, text: string, options: Omit<LabelSearchOptions, "signal">): Promise<LabelHit[]>;
  /** the turn's KG budget: every query and label search of the turn draws on it (kg-budget.ts) */
  budget: KgBudget;
  /** the language the user asked in (set when the Chat agent hands the question over); label searches also match it */
  questionLanguage?: string;
  /** the KG's notes (StrategyDeps.kgNotes), for agents that read them through the context (Chatty-KG's QIR agent) */
  kgNotes?: KgNotesSource;
}

export interface SparqlCallOptions {
  /**
   * part of a build kept once per KG (lexicon, schema facts): outside the turn's budget, since a build cut short is
   * not kept and every later turn would start it again
   */
  perKgBuild?: boolean;
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
  /** the turn's KG budget; default: config.kgQueryBudget queries and config.kgTimeBudgetMs of KG time */
  budget?: KgBudgetLimits;
  kgNotes?: KgNotesSource;
}): AgentContext {
  const now = deps.now ?? (() => performance.now());
  const warned = new Set<string>();
  const emit = deps.emit;
  const budget = createKgBudget(deps.budget ?? { queries: deps.config.kgQueryBudget, ms: deps.config.kgTimeBudgetMs }, {
    now,
    // one warning per step and kind: after the budget is spent every further call of the step is refused the same way
    onCut: (cut) => {
      const stage = (cut.where as Stage | undefined) ?? "execution";
      const key = `${stage} ${cut.reason}`;
      if (warned.has(key)) return;
      warned.add(key);
      emit({ type: "warning", stage, code: "budget", message: cut.message });
    },
  });
  const timeout = deps.config.queryTimeoutMs;
  const ctx: AgentContext = {
    ...deps,
    emit,
    now,
    budget,
    async searchLabels(stage, text, options) {
      const what = `the label search for ${JSON.stringify(text.slice(0, 60))}`;
      const lang = ctx.questionLanguage && ctx.questionLanguage !== "und" ? { questionLanguage: ctx.questionLanguage } : {};
      return budget.run(what, options.timeoutMs ?? timeout, (t) => deps.kg.searchLabels(text, { ...lang, ...options, timeoutMs: t, signal: deps.signal }), stage);
    },
    async callLlm(stage, input) {
      const result = await deps.llm.call({ signal: deps.signal, ...input });
      deps.emit({ type: "llm-call", stage, call: result.record });
      return result;
    },
    async sparql(stage, purpose, written, options = {}) {
      const started = now();
      const query = asRun(written);
      const run = (t: number) => deps.kg.query(query, { signal: deps.signal, timeoutMs: t });
      try {
        const result = await (options.perKgBuild ? run(timeout) : budget.run(purpose, timeout, run, stage));
        emit({ type: "sparql", stage, purpose, query, ms: now() - started, rows: rowCount(result) });
        return result;
      } catch (e) {
        const err = toAppError(e);
        emit({ type: "sparql", stage, purpose, query, ms: now() - started, rows: 0, error: err.message });
        throw err;
      }
    },
  };
  return ctx;
}
