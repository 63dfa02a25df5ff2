// Question-side processing for search_facts: words of the question related (by the English lexicon) to words of the
// KG's own predicate and class labels add those label words ("heaviest" → weight, when the KG has a weight
// predicate), and a superlative adds the words the verbalization uses for a group's extremes.
import type { KgFacts } from "./kg-facts";
import { loadLexicon, type Lexicon } from "./wordnet";

/** The words extreme-value sentences use (see extremes.ts). */
export const EXTREME_WORDS = ["highest", "lowest", "latest", "earliest"];
/** English superlative markers before an adjective ("most reliable", "least used"). */
const SUPERLATIVE_MARKERS = new Set(["most", "least"]);

const TOKEN = /[\p{L}\p{N}]+/gu;
export const tokens = (text: string): string[] => text.toLowerCase().match(TOKEN) ?? [];

/** Words of the labels of the KG's predicates and classes (its vocabulary for expansion). */
export function kgVocabulary(facts: KgFacts): Set<string> {
  const keys = new Set<string>();
  for (const t of facts.triples) {
    keys.add(t.p);
    if (facts.typePredicates.has(t.p) && t.o.type === "uri") keys.add(t.o.value);
  }
  const out = new Set<string>();
  for (const k of keys) for (const w of tokens(facts.label(k))) if (w.length > 2 && !/^\d+$/.test(w)) out.add(w);
  return out;
}

/** What the passage index expands questions with for this KG: its vocabulary and the English lexicon (if installed). */
export function expansionFor(facts: KgFacts): { vocabulary: Set<string>; lexicon: Lexicon | null } {
  return { vocabulary: kgVocabulary(facts), lexicon: loadLexicon() };
}

export interface Expansion {
  /** words added to the question */
  added: string[];
  superlative: boolean;
}

export function expandQuestion(question: string, vocabulary: ReadonlySet<string>, lexicon: Lexicon | null, isStopWord: (w: string) => boolean): Expansion {
  const words = tokens(question);
  const present = new Set(words);
  const added = new Set<string>();
  let superlative = false;
  for (const w of words) {
    if (SUPERLATIVE_MARKERS.has(w) || lexicon?.isSuperlative(w)) superlative = true;
    if (!lexicon || isStopWord(w) || w.length < 3 || vocabulary.has(w)) continue;
    for (const r of lexicon.related(w)) if (vocabulary.has(r) && !present.has(r) && !isStopWord(r)) added.add(r);
  }
  if (superlative) for (const w of EXTREME_WORDS) if (!present.has(w)) added.add(w);
  return { added: [...added], superlative };
}
