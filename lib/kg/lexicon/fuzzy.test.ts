import { describe, expect, it } from "vitest";
import { allowedEdits, closeWords, describeCorrection, editDistance } from "./fuzzy";
import { Lexicon } from "./lexicon";

describe("editDistance", () => {
  it("counts insertions, deletions, substitutions and a swapped pair as one edit each, and stops at the bound", () => {
    expect(editDistance("kitten", "sitten", 2)).toBe(1);
    expect(editDistance("reciept", "receipt", 2)).toBe(1); // swapped pair
    expect(editDistance("thermistor", "thermstor", 2)).toBe(1);
    expect(editDistance("hygrometer", "hgyrometr", 2)).toBe(2);
    expect(editDistance("abcdefgh", "zzzzzzzz", 2)).toBe(3); // max + 1: more than the bound
  });
});

describe("closeWords", () => {
  const vocab: [string, number][] = [["thermistor", 3], ["capacitor", 5], ["card", 2], ["cart", 1], ["bus", 4], ["gauge", 2]];
  const known = (w: string) => vocab.some(([v]) => v === w);
  it("reads a misspelt word as the closest word the names use, within 1 edit up to 7 letters and 2 from 8", () => {
    expect(allowedEdits("bug")).toBe(0);
    expect(allowedEdits("gauge")).toBe(1);
    expect(allowedEdits("thermistor")).toBe(2);
    expect(closeWords("thremistor", vocab, known)).toEqual([{ typed: "thremistor", matched: "thermistor", edits: 1 }]);
    expect(closeWords("capcitr", vocab, known)).toEqual([]); // 7 letters, 2 edits: too far
    expect(closeWords("guage", vocab, known)).toEqual([{ typed: "guage", matched: "gauge", edits: 1 }]);
  });
  it("never corrects a short word, a word the names use, or a code", () => {
    expect(closeWords("bug", vocab, known)).toEqual([]); // 3 letters: "bus" is one edit away and another word
    expect(closeWords("card", vocab, known)).toEqual([]); // a known word is not a typo of "cart"
    expect(closeWords("x12b", vocab, known)).toEqual([]);
    expect(closeWords("carts", [["car", 9]], () => false)).toEqual([]); // nor made into a short word
  });
  it("says what was matched for what was typed", () => {
    expect(describeCorrection({ typed: "kngfsiher", matched: "kingfisher", edits: 2 })).toBe('matched "kingfisher" ≈ "kngfsiher" (2 edits)');
  });
});

describe("Lexicon.correctWords", () => {
  it("replaces only the words no name uses, inflections folded, and keeps the rest", () => {
    const lx = new Lexicon();
    lx.addTerm("http://ex.org/cat/Thermistor", "entity");
    lx.addName("http://ex.org/p1", { text: "Blue Gauges", source: { kind: "local-name" } });
    expect(lx.correctWords("the thremistor")).toEqual({ text: "the thermistor", corrections: [{ typed: "thremistor", matched: "thermistor", edits: 1 }] });
    expect(lx.correctWords("blue gauge")).toBeUndefined(); // "gauge" is "Gauges" inflected, not a typo
    expect(lx.correctWords("zzqx")).toBeUndefined();
  });
});
