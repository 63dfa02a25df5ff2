// The context an onboarding job queries the KG through: the pipeline's AgentContext (so the lexicon, the schema facts
// and the explorer's data shape are built and cached exactly as a turn builds them, and the next turn reuses them),
// with the job's signal, its per-query timeout, and a counter of the queries it ran.
import { AppError } from "@/lib/errors";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createAgentContext, type AgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG, type DerivationEvent, type Stage } from "@/lib/pipeline/types";

/** The stage name the job's queries are reported under (they are no turn's; the name only labels them). */
export const ONBOARDING_STAGE: Stage = "retrieval";

export interface OnboardingContext {
  ctx: AgentContext;
  /** queries run (ok or failed) */
  queries(): number;
  /** the last failed queries' errors, newest last */
  errors(): string[];
}

/** An LLM gateway for jobs without a model: building the profile never calls one. */
export function noLlm(): LlmGateway {
  const refuse = () => {
    throw new AppError("llm_not_configured", "No language model is configured for this onboarding job.");
  };
  return { call: async () => refuse(), resolve: refuse as LlmGateway["resolve"], record: () => undefined, reject: () => undefined, records: [] };
}

export function createOnboardingContext(kg: KnowledgeGraph, options: { signal?: AbortSignal; queryTimeoutMs: number; llm?: LlmGateway; onEvent?: (e: DerivationEvent) => void }): OnboardingContext {
  let queries = 0;
  const errors: string[] = [];
  const ctx = createAgentContext({
    kg,
    llm: options.llm ?? noLlm(),
    similarity: createLexicalSimilarity(),
    config: { ...DEFAULT_CONFIG, queryTimeoutMs: options.queryTimeoutMs },
    signal: options.signal,
    emit: (e) => {
      if (e.type === "sparql") {
        queries++;
        if (e.error) {
          errors.push(e.error);
          if (errors.length > 5) errors.shift();
        }
      }
      options.onEvent?.(e);
    },
  });
  return { ctx, queries: () => queries, errors: () => [...errors] };
}

/** Rows of a SELECT run for the job (outside any turn budget; the job has its own bounds). */
export async function selectRows(ctx: AgentContext, purpose: string, query: string) {
  const r = await ctx.sparql(ONBOARDING_STAGE, purpose, query, { perKgBuild: true });
  return r.kind === "SELECT" ? r.results.bindings : [];
}
