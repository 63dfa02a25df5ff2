// Typo tolerance for name search: a word the KG's names never use is matched to the names' words within a small
// Damerau-Levenshtein distance (a swapped pair of letters counts as one edit), so "kngfisher" finds "Kingfisher".
// Whole words only; short words are never corrected (one edit turns most of them into another real word).

/** Edits a word of this many letters may be off by: none below 4, 1 for 4–7 letters, 2 from 8. */
export function allowedEdits(word: string): number {
  const n = [...word].length;
  return n < 4 ? 0 : n < 8 ? 1 : 2;
}

/**
 * Optimal-string-alignment Damerau-Levenshtein distance between `a` and `b`, or `max + 1` as soon as it must exceed
 * `max` (the bound keeps a scan over a large vocabulary cheap).
 */
export function editDistance(a: string, b: string, max: number): number {
  const x = [...a];
  const y = [...b];
  if (Math.abs(x.length - y.length) > max) return max + 1;
  let before: number[] = [];
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && x[i - 1] === y[j - 2] && x[i - 2] === y[j - 1]) d = Math.min(d, before[j - 2] + 1);
      cur.push(d);
      rowMin = Math.min(rowMin, d);
    }
    if (rowMin > max) return max + 1;
    before = prev;
    prev = cur;
  }
  return prev[y.length];
}

export interface WordCorrection {
  /** the word as typed (lowercased, accents folded) */
  typed: string;
  /** the names' word it is read as */
  matched: string;
  edits: number;
}

/** Words only (letters), so ids, codes and numbers are never "corrected" into other ids. */
const WORD = /^\p{L}+$/u;

/**
 * The closest words of `vocabulary` to `word` within its allowed edits (all at the smallest distance, most used first,
 * at most `limit`); none when the word is too short, not a plain word, or itself in the vocabulary (`known`).
 */
export function closeWords(word: string, vocabulary: Iterable<[string, number]>, known: (w: string) => boolean, limit = 3): WordCorrection[] {
  const max = allowedEdits(word);
  if (max === 0 || !WORD.test(word) || known(word)) return [];
  let best = max + 1;
  let found: { w: string; uses: number }[] = [];
  for (const [w, uses] of vocabulary) {
    // the vocabulary's short words are not targets either: "cart" must not become "car"
    if (w === word || allowedEdits(w) === 0 || !WORD.test(w)) continue;
    const d = editDistance(word, w, Math.min(best, max, allowedEdits(w)));
    if (d > Math.min(max, allowedEdits(w)) || d > best) continue;
    if (d < best) {
      best = d;
      found = [];
    }
    found.push({ w, uses });
  }
  return found
    .sort((a, b) => b.uses - a.uses || (a.w < b.w ? -1 : 1))
    .slice(0, limit)
    .map(({ w }) => ({ typed: word, matched: w, edits: best }));
}

/** "matched "kingfisher" ≈ "kngfsiher" (2 edits)" for tool outputs and derivations. */
export function describeCorrection(c: WordCorrection): string {
  return `matched ${JSON.stringify(c.matched)} ≈ ${JSON.stringify(c.typed)} (${c.edits} edit${c.edits === 1 ? "" : "s"})`;
}
