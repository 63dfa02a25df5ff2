// Typo tolerance for name search: a word the KG's names never use is matched to the names' words within a small
// Damerau-Levenshtein distance (a swapped pair of letters counts as one edit), so "kngfisher" finds "Kingfisher".
// Whole words only; short words are never corrected (one edit turns most of them into another real word).

/** Edits a word of this many letters may be off by: none below 4, 1 for 4–7 letters, 2 from 8. */
export function allowedEdits(word: string): number {
  const n = [...word].length;
  return n < 4 ? 0 : n < 8 ? 1 : 2;
}

/**
 * Optimal-string-alignment Damerau-Levenshtein distance between `a` and `b` (UTF-16 units: the tokens are letters), or
 * `max + 1` as soon as it must exceed `max` (the bound keeps a scan over a large vocabulary cheap).
 */
export function editDistance(a: string, b: string, max: number): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  // three rolling rows, reused between calls (a scan calls this for every word of the vocabulary)
  if (rows[0].length < m + 1) rows = [0, 1, 2].map(() => new Int32Array(m + 1));
  let [before, prev, cur] = rows;
  for (let j = 0; j <= m; j++) prev[j] = j;
  for (let i = 1; i <= n; i++) {
    cur[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= m; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) d = Math.min(d, before[j - 2] + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [before, prev, cur] = [prev, cur, before];
  }
  return prev[m];
}
let rows = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

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
    // a length off by more than the edits allowed cannot match (checked first: the scan may cover 100,000s of words)
    if (Math.abs(w.length - word.length) > max || w === word || allowedEdits(w) === 0 || !WORD.test(w)) continue;
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
