// Question expansion: question words related (WordNet) to words of the KG's own labels add those words; superlatives
// add the extreme-value passages' words; without the lexicon only superlative markers count.
import { describe, expect, it } from "vitest";
import { EXTREME_WORDS, expandQuestion } from "./query-expansion";
import { loadLexicon } from "./wordnet";

const stop = (w: string) => ["the", "is", "of", "which", "what"].includes(w);
const lexicon = loadLexicon();

describe.skipIf(!lexicon)("question expansion with the English lexicon", () => {
  it("adds a label word of the KG that a question word is related to, and only words of the KG", () => {
    const vocab = new Set(["duration", "seconds", "track", "age"]);
    const e = expandQuestion("Which is the longest track?", vocab, lexicon!, stop);
    expect(e.superlative).toBe(true);
    expect(e.added).toContain("duration");
    expect(e.added).toEqual(expect.arrayContaining(EXTREME_WORDS));
    expect(e.added).not.toContain("length"); // related, but not a word of this KG
    expect(expandQuestion("Who is the oldest member?", vocab, lexicon!, stop).added).toContain("age");
    // no superlative, no vocabulary match: nothing added
    expect(expandQuestion("Who wrote the album?", vocab, lexicon!, stop).added).toEqual([]);
  });

  it("knows base forms and superlatives by WordNet's rules", () => {
    expect(lexicon!.baseForms("biggest")).toContainEqual({ pos: "a", lemma: "big" });
    expect(lexicon!.isSuperlative("largest")).toBe(true);
    expect(lexicon!.isSuperlative("interest")).toBe(false);
    expect(lexicon!.related("deepest")).toContain("depth");
  });
});

describe("question expansion without a lexicon", () => {
  it("still sees 'most' and 'least' as superlatives and adds nothing else", () => {
    const e = expandQuestion("Which band has the most albums?", new Set(["album"]), null, stop);
    expect(e).toEqual({ added: EXTREME_WORDS, superlative: true });
    expect(expandQuestion("Which band plays jazz?", new Set(["album"]), null, stop)).toEqual({ added: [], superlative: false });
  });

  it("a missing WordNet folder is no lexicon, not an error", () => {
    expect(loadLexicon("/nonexistent/wordnet")).toBeNull();
  });
});
