// Words and spans of the asked question, case- and inflection-insensitive (English and German endings): what a
// question-grounded oracle may write is a span of the question (lib/eval/oracle-grounding.ts has the rules).
import { allowedEdits, editDistance } from "@/lib/kg/lexicon/fuzzy";

export interface Token {
  /** lower-cased word */
  word: string;
  start: number;
  end: number;
}

/** Words of a text (runs of letters, runs of digits, any script), with their offsets; "Dr. Olsen" → dr, olsen; "4x4" → 4, x, 4. */
export function tokens(text: string): Token[] {
  return [...text.matchAll(/\p{L}+|\p{N}+/gu)].map((m) => ({ word: m[0].toLowerCase(), start: m.index ?? 0, end: (m.index ?? 0) + m[0].length }));
}

/**
 * The numbers a text writes, as written: "199.925", "1,250.5" (→ 1250.5), "135kV" (→ 135), German "1,5" (→ 1.5).
 * Words split a decimal at its point ("199", "925"), so a number is read here whole.
 */
export function numbersIn(text: string, language = "en"): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![\p{L}\p{N}.,])[+-]?\d+(?:[.,]\d+)*/gu)) {
    let n = m[0];
    if (language === "de") n = n.replace(/\./g, "").replace(",", ".");
    else if (/^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(n)) n = n.replace(/,/g, "");
    if (/^[+-]?\d+(\.\d+)?$/.test(n)) out.push(n);
  }
  return out;
}

// Inflection endings of English and German (plural, past, comparison, case): "members" = "member", "released" =
// "release", "Mitglieder" = "Mitglied". Suffix stripping, not a dictionary: a word's stem must keep 3 letters.
const SUFFIXES = ["s", "es", "d", "ed", "ing", "er", "ers", "est", "e", "en", "em", "ern", "n", "st", "ste", "sten", "ster", "stes"];

function stems(word: string): Set<string> {
  const out = new Set([word]);
  for (const s of SUFFIXES) if (word.endsWith(s) && word.length - s.length >= 3) out.add(word.slice(0, -s.length));
  if (/(ies|ied)$/.test(word) && word.length > 4) out.add(`${word.slice(0, -3)}y`);
  return out;
}

/** Same word up to case and inflection ("Bands" = "band", "teaches" = "teacher" share "teach"). */
export function sameWord(a: string, b: string): boolean {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  if (x === y) return true;
  const sx = stems(x);
  for (const s of stems(y)) if (sx.has(s)) return true;
  return false;
}

// Function words of the languages the benchmarks ask in (English, German): never a mention or relation on their own.
const STOP_WORDS = new Set(
  [
    "a an the of in on at to for from by with and or not no is are was were be been being do does did has have had what which who whom whose when where why how many much that this these those it its there their his her he she they them as than all any each me my our your give list show tell name named called",
    "der die das den dem des ein eine einen einem einer eines und oder nicht kein keine ist sind war waren wird werden wurde wurden hat haben hatte wer wen wem wessen was welche welcher welches welchen welchem wie viel viele wo wann warum von vom zu zum zur im in am an auf für mit bei aus nach es sie er ihr ihre ihren sein seine seinen gib zeige nenne alle",
  ]
    .join(" ")
    .split(" "),
);
// question words, articles and auxiliaries: never part of a relation phrase
const QUESTION_WORDS = new Set(
  "a an the what which who whom whose when where why how many much is are was were be been being do does did there it this that these those give list show tell me der die das den dem des ein eine einen wer wen wem wessen was welche welcher welches welchen wie viel viele wo wann warum ist sind war waren es gib zeige nenne".split(" "),
);
const ASKING = new Set("which what many much welche welcher welches welchen welchem viele".split(" "));
export const isStopWord = (word: string) => STOP_WORDS.has(word.toLowerCase());

/** The question's text covered by tokens i..j (inclusive), as written there. */
const textOf = (question: string, ts: Token[], i: number, j: number) => question.slice(ts[i].start, ts[j].end);

/**
 * The question's own spelling of `phrase` when its words occur there in order and contiguously (case- and
 * inflection-insensitive); null when they do not ("has teacher" is no span of "Who teaches Ann?").
 */
export function questionSpan(phrase: string, question: string): string | null {
  const p = tokens(phrase);
  const q = tokens(question);
  if (p.length === 0) return null;
  for (let i = 0; i + p.length <= q.length; i++) {
    if (p.every((t, k) => sameWord(t.word, q[i + k].word))) return textOf(question, q, i, i + p.length - 1);
  }
  return null;
}

/** True when every word of `text` is a span of the question (the refusal test of the rules). */
export const isQuestionSpan = (text: string, question: string) => questionSpan(text, question) !== null;

/**
 * The shortest question span covering the most content words of `target` (both ends matching some word of it):
 * "Jane Olsen" in "Which club is Dr. Olsen in?" → "Olsen". Null when no content word is shared.
 * The target (say a gold IRI's label) only chooses; the text written is the question's.
 */
export function overlapSpan(target: string, question: string, avoid: string[] = []): string | null {
  const want = tokens(target).map((t) => t.word).filter((w) => !isStopWord(w));
  const q = tokens(question);
  const blocked = new Set(avoid.flatMap((a) => tokenIndexes(a, q)));
  const hit = q.map((t, i) => !blocked.has(i) && !isStopWord(t.word) && want.some((w) => sameWord(w, t.word)));
  let best: { i: number; j: number; n: number } | undefined;
  for (let i = 0; i < q.length; i++) {
    if (!hit[i]) continue;
    let n = 0;
    for (let j = i; j < q.length && !blocked.has(j); j++) {
      if (!hit[j]) continue;
      n++;
      if (!best || n > best.n || (n === best.n && j - i < best.j - best.i)) best = { i, j, n };
    }
  }
  return best ? textOf(question, q, best.i, best.j) : null;
}

/**
 * A question word that is a misspelling of a content word of `target` (within the edits typo-tolerant search allows:
 * 1 for 4–7 letters, 2 from 8; "kngfisher" for "Kingfisher"), as the question writes it; null when none. A model
 * searches the word the user wrote; whether the KG's search then finds the thing is the pipeline's business.
 */
export function misspeltSpan(target: string, question: string, avoid: string[] = []): string | null {
  const want = tokens(target).map((t) => t.word).filter((w) => !isStopWord(w) && allowedEdits(w) > 0);
  const q = tokens(question);
  const blocked = new Set(avoid.flatMap((a) => tokenIndexes(a, q)));
  for (let i = 0; i < q.length; i++) {
    const w = q[i].word;
    if (blocked.has(i) || isStopWord(w) || allowedEdits(w) === 0 || !/^\p{L}+$/u.test(w)) continue;
    const max = (t: string) => Math.min(allowedEdits(w), allowedEdits(t));
    if (want.some((t) => !sameWord(t, w) && editDistance(t, w, max(t)) <= max(t))) return textOf(question, q, i, i);
  }
  return null;
}

/** Indexes of the question tokens a span occupies (every occurrence). */
function tokenIndexes(span: string, q: Token[]): number[] {
  const p = tokens(span);
  const out: number[] = [];
  if (!p.length) return out;
  for (let i = 0; i + p.length <= q.length; i++) if (p.every((t, k) => sameWord(t.word, q[i + k].word))) for (let k = 0; k < p.length; k++) out.push(i + k);
  return out;
}

/**
 * Runs of content words of the question that no span in `taken` covers, longest first: what a model would call the
 * relation when the KG's name for it is not in the question ("When did she retire?" → "retire").
 */
export function leftoverSpans(question: string, taken: string[], options: { functionWords?: boolean } = {}): string[] {
  const q = tokens(question);
  const blocked = new Set(taken.flatMap((t) => tokenIndexes(t, q)));
  const runs: { i: number; j: number }[] = [];
  let start = -1;
  // with functionWords, prepositions and verbs count too ("Is it from Peru?" → "from"); question words never do
  const word = (w: string) => (options.functionWords ? !QUESTION_WORDS.has(w) : !isStopWord(w));
  q.forEach((t, i) => {
    const free = !blocked.has(i) && word(t.word) && !/^\d+$/.test(t.word);
    if (free && start < 0) start = i;
    if (!free && start >= 0) {
      runs.push({ i: start, j: i - 1 });
      start = -1;
    }
  });
  if (start >= 0) runs.push({ i: start, j: q.length - 1 });
  // the words right after "which"/"what"/"how many" name the answer's kind ("Which albums …"), not a relation: last
  const asked = (r: { i: number }) => (r.i > 0 && ASKING.has(q[r.i - 1].word) ? 1 : 0);
  return runs.sort((a, b) => asked(a) - asked(b) || b.j - b.i - (a.j - a.i) || a.i - b.i).map((r) => textOf(question, q, r.i, r.j));
}
