// Search over verbalized facts: BM25 (MiniSearch's BM25+) always; when an embedding model is available, also cosine
// similarity over passage embeddings, fused with BM25 by reciprocal rank. The index says which ran.
import MiniSearch from "minisearch";
import { AppError } from "@/lib/errors";
import type { Similarity } from "@/lib/embeddings/types";
import { expandQuestion } from "./query-expansion";
import type { Passage } from "./verbalize";
import type { Lexicon } from "./wordnet";

export interface PassageHit {
  passage: Passage;
  /** fused score (higher is better) */
  score: number;
  bm25Rank?: number;
  denseRank?: number;
}

export interface PassageIndex {
  readonly passages: readonly Passage[];
  /** "bm25" or "bm25+embeddings" */
  readonly mode: "bm25" | "bm25+embeddings";
  /** the embedding model, or why there is none */
  readonly note: string;
  search(query: string, k: number, signal?: AbortSignal): Promise<PassageHit[]>;
}

export interface PassageIndexOptions {
  similarity?: Pick<Similarity, "kind" | "name" | "warning" | "embed">;
  /** passages beyond this are searched with BM25 only (embedding them all on a CPU takes too long) */
  maxEmbedded?: number;
  batchSize?: number;
  signal?: AbortSignal;
  onProgress?: (done: number, total: number) => void;
  /** words of the KG's predicate and class labels: question words related to them (by `lexicon`) add them */
  vocabulary?: ReadonlySet<string>;
  lexicon?: Lexicon | null;
}

/** weight of a word added to the question relative to the question's own words */
const EXPANSION_BOOST = 0.5;

// Function words carry no evidence, and the verbalization's own glue words ("X has p Y", "Y is p of X", "also
// called", "continued") are in every passage: BM25 would rank short passages on them.
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could did do does for from had has have how i if in into is it its me my no not of on or " +
    "our she he they them their there these this those that the then to was we were what when where which who whom whose why will " +
    "with would you your us any all some get give show tell list find also called continued among"
  ).split(" "),
);
const isStopWord = (term: string) => STOP_WORDS.has(term.toLowerCase());
const processTerm = (term: string): string | null => {
  const t = term.toLowerCase();
  return STOP_WORDS.has(t) ? null : t;
};

/** Reciprocal-rank-fusion constant (the usual 60). */
const RRF_K = 60;
/** BM25 and dense candidates considered before fusion. */
const CANDIDATES = 100;

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export async function buildPassageIndex(passages: Passage[], options: PassageIndexOptions = {}): Promise<PassageIndex> {
  const mini = new MiniSearch<{ id: number; label: string; text: string }>({
    fields: ["label", "text"],
    idField: "id",
    processTerm,
    searchOptions: { boost: { label: 2 }, combineWith: "OR", prefix: (term) => term.length > 3, fuzzy: (term) => (term.length > 5 ? 0.2 : false), processTerm },
  });
  mini.addAll(passages.map((p, i) => ({ id: i, label: p.label, text: p.text })));

  const sim = options.similarity;
  const max = options.maxEmbedded ?? 20_000;
  let vectors: Float32Array[] | undefined;
  let note: string;
  if (!sim?.embed || sim.kind === "lexical") {
    // why none loaded is reported where the similarity is chosen (CLI note, relation linking); here it is only "none"
    note = sim?.warning ? "no embedding model could be loaded" : "no embedding model is configured";
  } else if (passages.length > max) {
    note = `${passages.length} passages are more than the ${max} embedded on this machine; BM25 only`;
  } else {
    const batch = options.batchSize ?? 32;
    vectors = [];
    for (let i = 0; i < passages.length; i += batch) {
      if (options.signal?.aborted) throw new AppError("aborted", "Building the passage index was cancelled.");
      const embedded = await sim.embed(passages.slice(i, i + batch).map((p) => p.text));
      for (const v of embedded) vectors.push(Float32Array.from(v));
      options.onProgress?.(Math.min(passages.length, i + batch), passages.length);
    }
    note = sim.name;
  }

  return {
    passages,
    mode: vectors ? "bm25+embeddings" : "bm25",
    note,
    async search(query, k) {
      const text = query.trim().slice(0, 2000);
      if (!text) return [];
      const fused = new Map<number, PassageHit>();
      const hit = (i: number) => fused.get(i) ?? fused.set(i, { passage: passages[i], score: 0 }).get(i)!;
      const { added, superlative } = expandQuestion(text, options.vocabulary ?? new Set(), options.lexicon ?? null, isStopWord);
      const entityOnly = (r: { id: unknown }) => passages[r.id as number].kind !== "extremes";
      const lists = [mini.search(text, { filter: entityOnly })];
      if (added.length) {
        // the expanded question is a second ranking, fused with the plain one: the expansion can promote passages
        // but not push every plain match out; extreme-value passages take part only for a superlative question
        const extra = new Set(added);
        lists.push(mini.search(`${text} ${added.join(" ")}`, { boostTerm: (term) => (extra.has(term) ? EXPANSION_BOOST : 1), filter: superlative ? undefined : entityOnly }));
      }
      for (const results of lists) {
        results.slice(0, CANDIDATES).forEach((r, rank) => {
          const h = hit(r.id as number);
          h.bm25Rank = Math.min(h.bm25Rank ?? Infinity, rank + 1);
          h.score += 1 / (RRF_K + rank + 1);
        });
      }
      if (vectors && sim?.embed) {
        const [q] = await sim.embed([text]);
        const qv = Float32Array.from(q);
        const scored = vectors.map((v, i) => [dot(qv, v), i] as const).sort((a, b) => b[0] - a[0]).slice(0, CANDIDATES);
        scored.forEach(([, i], rank) => {
          const h = hit(i);
          h.denseRank = rank + 1;
          h.score += 1 / (RRF_K + rank + 1);
        });
      }
      return [...fused.values()].sort((a, b) => b.score - a.score || (a.bm25Rank ?? 1e9) - (b.bm25Rank ?? 1e9)).slice(0, Math.max(0, k));
    },
  };
}
