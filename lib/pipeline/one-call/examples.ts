// The solved examples of a one-call turn: the k pairs of the KG's experience pool closest to the question, by the
// embedding model when one is loaded, by BM25 over the questions' words otherwise.
import type { Similarity } from "@/lib/embeddings/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { normalizedBm25 } from "@/lib/pipeline/common/bm25";
import { readPool, type RetrievedExample } from "@/lib/pipeline/common/experience";
import type { ExperienceExample, ExperienceSource, Stage } from "@/lib/pipeline/types";
import { queryShape, questionShape, shapeAgreement } from "./example-shape";

export const DEFAULT_EXAMPLES = 5;

export type ExampleRanking = "embedding" | "bm25";

/** Which ranking a similarity gives: an embedding model's vectors, or BM25 when only the lexical fallback is there. */
export function rankingOf(similarity: Similarity): ExampleRanking {
  return similarity.kind === "lexical" ? "bm25" : "embedding";
}

export interface RankingOptions {
  /** weight of the agreement between the question's cue words and the example query's operators (0: words only) */
  shapeWeight: number;
  /** the words of the classes and predicates the example's query names join its question's words */
  schemaWords: boolean;
}
export const DEFAULT_RANKING: RankingOptions = { shapeWeight: 0.15, schemaWords: true };

/** The words of the compact names a query uses ("ex:booking_status" → "booking status"), the rdf/xsd vocabulary aside. */
function schemaWordsOf(sparql: string): string {
  const names = sparql.replace(/^\s*PREFIX[^\n]*\n/gim, "").match(/\b[A-Za-z][\w-]*:([A-Za-z_][\w-]*)/g) ?? [];
  return names
    .filter((n) => !/^(rdf|rdfs|owl|xsd):/.test(n))
    .map((n) => n.slice(n.indexOf(":") + 1).replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " "))
    .join(" ");
}

/**
 * The pool ranked against the question, best first, ties in pool order; pairs sharing nothing with it are dropped.
 * The score is the text similarity (plus the words of the classes and predicates an example's query names), nudged by
 * whether the question's cue words ask for the kind of query the example is (a count, a group, a superlative, …).
 */
export async function rankExamples(question: string, pool: ExperienceExample[], similarity: Similarity, k: number, options: RankingOptions = DEFAULT_RANKING): Promise<RetrievedExample[]> {
  if (pool.length === 0 || k <= 0) return [];
  const scores =
    rankingOf(similarity) === "embedding"
      ? await similarity.scores(question, pool.map((e) => e.question))
      : normalizedBm25(question, pool.map((e) => (options.schemaWords ? `${e.question} ${schemaWordsOf(e.sparql)}` : e.question)));
  const asked = questionShape(question);
  return pool
    .map((e, i) => {
      const text = scores[i] ?? 0;
      const rank = text > 0 && options.shapeWeight > 0 ? text + options.shapeWeight * shapeAgreement(asked, queryShape(e.sparql)) : text;
      return { ...e, score: Math.round(text * 1000) / 1000, rank };
    })
    .filter((e) => e.score > 0)
    .sort((a, b) => b.rank - a.rank)
    .slice(0, k)
    .map(({ rank: _rank, ...e }) => e);
}

export async function retrieveSolvedExamples(source: ExperienceSource | undefined, ctx: AgentContext, question: string, k: number, stage: Stage): Promise<{ examples: RetrievedExample[]; ranking: ExampleRanking; pool: number }> {
  const pool = await readPool(source, ctx, stage);
  return { examples: await rankExamples(question, pool, ctx.similarity, k), ranking: rankingOf(ctx.similarity), pool: pool.length };
}
