// The solved examples of a one-call turn: the k pairs of the KG's experience pool closest to the question, by the
// embedding model when one is loaded, by BM25 over the questions' words otherwise.
import type { Similarity } from "@/lib/embeddings/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { normalizedBm25 } from "@/lib/pipeline/common/bm25";
import { readPool, type RetrievedExample } from "@/lib/pipeline/common/experience";
import type { ExperienceExample, ExperienceSource, Stage } from "@/lib/pipeline/types";

export const DEFAULT_EXAMPLES = 5;

export type ExampleRanking = "embedding" | "bm25";

/** Which ranking a similarity gives: an embedding model's vectors, or BM25 when only the lexical fallback is there. */
export function rankingOf(similarity: Similarity): ExampleRanking {
  return similarity.kind === "lexical" ? "bm25" : "embedding";
}

/** The pool ranked against the question, best first, ties in pool order; pairs sharing nothing with it are dropped. */
export async function rankExamples(question: string, pool: ExperienceExample[], similarity: Similarity, k: number): Promise<RetrievedExample[]> {
  if (pool.length === 0 || k <= 0) return [];
  const texts = pool.map((e) => e.question);
  const scores = rankingOf(similarity) === "embedding" ? await similarity.scores(question, texts) : normalizedBm25(question, texts);
  return pool
    .map((e, i) => ({ ...e, score: Math.round((scores[i] ?? 0) * 1000) / 1000 }))
    .filter((e) => e.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

export async function retrieveSolvedExamples(source: ExperienceSource | undefined, ctx: AgentContext, question: string, k: number, stage: Stage): Promise<{ examples: RetrievedExample[]; ranking: ExampleRanking; pool: number }> {
  const pool = await readPool(source, ctx, stage);
  return { examples: await rankExamples(question, pool, ctx.similarity, k), ranking: rankingOf(ctx.similarity), pool: pool.length };
}
