// BM25 (Okapi) over short texts: ranks solved questions against a new one when no embedding model is loaded. Word
// tokens, lower-cased, with a light plural/verb-ending strip so "terminals" meets "terminal".
const K1 = 1.2;
const B = 0.75;

/** Lower-cased word tokens of a text, with a crude suffix strip ("lines" → "line", "connected" → "connect"). */
export function bm25Tokens(text: string): string[] {
  const words = text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.map((w) => (w.length > 4 ? w.replace(/(ies|es|s|ed|ing)$/, "") : w));
}

export interface Bm25Index {
  /** one score per document (0 = no shared term), in document order */
  scores(query: string): number[];
}

export type Tokenizer = (text: string) => string[];

export function createBm25Index(documents: string[], tokens: Tokenizer = bm25Tokens): Bm25Index {
  const docs = documents.map(tokens);
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const t of new Set(d)) df.set(t, (df.get(t) ?? 0) + 1);
  const tf = docs.map((d) => {
    const m = new Map<string, number>();
    for (const t of d) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const idf = (t: string) => {
    const n = df.get(t) ?? 0;
    return Math.log(1 + (docs.length - n + 0.5) / (n + 0.5));
  };
  return {
    scores(query) {
      const terms = [...new Set(tokens(query))];
      return tf.map((m, i) => {
        let s = 0;
        for (const t of terms) {
          const f = m.get(t);
          if (!f) continue;
          s += (idf(t) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * docs[i].length) / (avg || 1)));
        }
        return s;
      });
    },
  };
}

/**
 * BM25 scores scaled to [0, 1] by the query's score against itself (the most a document could reach), so a threshold
 * and the derivation's "similarity" mean the same on any pool.
 */
export function normalizedBm25(query: string, documents: string[], tokens: Tokenizer = bm25Tokens): number[] {
  const index = createBm25Index([...documents, query], tokens);
  const all = index.scores(query);
  const self = all[all.length - 1] || 1;
  return all.slice(0, -1).map((s) => Math.min(1, s / self));
}
