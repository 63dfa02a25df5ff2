// A KG's schema summary for MCP (describe_schema and the schema resources): the one-shot baseline's summary of frequent
// classes and predicates, built from bounded queries once per KG object.
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import type { KnowledgeGraph } from "@/lib/kg/types";
import type { LlmGateway } from "@/lib/llm/types";
import { createSchemaCache, getKgSchema, type KgSchema } from "@/lib/pipeline/baselines/kg-schema";
import { createAgentContext } from "@/lib/pipeline/common/agent-context";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { AppError } from "@/lib/errors";

const cache = createSchemaCache();

// building a schema asks no model: a gateway that says so if that ever changes
const noLlm = new Proxy({} as LlmGateway, {
  get: () => () => {
    throw new AppError("internal", "The schema summary does not call an LLM.");
  },
});

export async function schemaSummary(kg: KnowledgeGraph, signal?: AbortSignal): Promise<KgSchema> {
  const ctx = createAgentContext({ kg, llm: noLlm, similarity: createLexicalSimilarity(), config: DEFAULT_CONFIG, signal, emit: () => {} });
  return (await getKgSchema(cache, ctx, "query-generation")).schema;
}
