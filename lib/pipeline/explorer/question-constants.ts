// The question's own constants: things a search for a name the question writes found ("Which is older, Ann Lee or
// Bo Park?" → the two people). A final query may choose among them with VALUES / FILTER IN although an earlier
// query's rows showed them too; an answer found while exploring (a name the question does not write) stays refused.
import { tokenize } from "@/lib/kg/label-index";
import { allowedEdits, editDistance, stem } from "@/lib/kg/lexicon";

/** The words that must be written: the content words (4+ letters) when there are some, else every word. */
function wordsOf(text: string): string[] {
  const all = tokenize(text).map(stem);
  const content = all.filter((w) => allowedEdits(w) > 0);
  return content.length ? content : all;
}

/**
 * Does the question (as the explorer reads it, or as the user wrote it) write every word of `name`? Case, accents and
 * inflection are folded; a word within the edits typo-tolerant search allows counts ("Kingfisher" for "kngfisher").
 */
export function questionWritesName(name: string, asked: readonly string[]): boolean {
  const want = wordsOf(name);
  if (want.length === 0) return false;
  const have = new Set(asked.flatMap((q) => tokenize(q).map(stem)));
  const close = (w: string) =>
    [...have].some((h) => {
      const max = Math.min(allowedEdits(w), allowedEdits(h));
      return max > 0 && editDistance(w, h, max) <= max;
    });
  return want.every((w) => have.has(w) || close(w));
}

/** Does the question write `value` (a literal) as a phrase of its own (case-insensitive, whole words)? */
export function questionWritesValue(value: string, asked: readonly string[]): boolean {
  const v = tokenize(value);
  if (v.length === 0 || v.every((w) => /^\d+$/.test(w))) return false; // a bare number may be a count found earlier
  return asked.some((q) => {
    const t = tokenize(q);
    for (let i = 0; i + v.length <= t.length; i++) if (v.every((w, k) => t[i + k] === w)) return true;
    return false;
  });
}
