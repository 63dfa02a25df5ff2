// The induction stage: the KG's database and passage index from the cache, built on first use with progress events.
import type { Similarity } from "@/lib/embeddings/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { KnowledgeCache, RagoniteKnowledge } from "./knowledge";
import type { RagoniteState } from "./state";

export async function prepareKnowledge(
  _state: RagoniteState,
  ctx: AgentContext,
  cache: KnowledgeCache,
  similarity: Similarity,
): Promise<{ knowledge: RagoniteKnowledge; patch: Partial<RagoniteState> }> {
  const t0 = ctx.now();
  const { knowledge, cached } = await cache.get(ctx.kg, {
    similarity,
    signal: ctx.signal,
    onProgress: (p) => ctx.emit({ type: "progress", stage: "induction", message: p.message, ...(p.done !== undefined ? { done: p.done, total: p.total } : {}) }),
  });
  const s = knowledge.stats;
  return {
    knowledge,
    patch: {
      knowledge: {
        tables: s.tables,
        linkTables: s.linkTables,
        rows: s.rows,
        passages: knowledge.passages.passages.length,
        search: knowledge.passages.mode,
        searchNote: knowledge.passages.note,
        cached,
        reused: s.reused,
        ms: ctx.now() - t0,
      },
    },
  };
}
