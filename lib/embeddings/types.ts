// Ranks short phrases (predicate labels) by semantic closeness to a relation phrase.

export type SimilarityKind = "transformers" | "provider" | "lexical";

export interface Similarity {
  readonly kind: SimilarityKind;
  /** e.g. "Xenova/all-MiniLM-L6-v2" or "lexical (tokens, stems, char 3-grams)" */
  readonly name: string;
  /** set when this similarity is a fallback (why the preferred model did not load); shown in the derivation */
  readonly warning?: string;
  /** one score per candidate, in the candidates' order, in [-1, 1] (higher = closer) */
  scores(query: string, candidates: string[]): Promise<number[]>;
  /** one L2-normalised vector per text, when backed by an embedding model (search over many texts embeds each once) */
  embed?(texts: string[]): Promise<number[][]>;
}

export interface Embedder {
  readonly kind: Exclude<SimilarityKind, "lexical">;
  readonly name: string;
  /** one L2-normalised vector per text */
  embed(texts: string[]): Promise<number[][]>;
}
