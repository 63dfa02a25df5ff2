// The official client's per-language averages (text2sparql-client 2.1.x), numbers worked out by hand from its code.
import { describe, expect, it } from "vitest";
import { officialLanguageAverages, type ScoredEntry } from "./text2sparql-languages";

const entries = (prefix: string): ScoredEntry[] => [
  { id: `${prefix}:1-en`, precision: 1, recall: 1, f1: 1 },
  { id: `${prefix}:1-de`, precision: 0, recall: 0, f1: 0 },
  { id: `${prefix}:2-en`, precision: 1, recall: 1, f1: 1, ndcg: 1 },
  { id: `${prefix}:2-de`, precision: 0, recall: 0, f1: 0, ndcg: 0 },
  { id: `${prefix}:3-en`, precision: 1, recall: 0.5, f1: 2 / 3 },
];

describe("officialLanguageAverages", () => {
  it("averages each language's questions; set_F_ndcg is one number over every entry, the same for each language", () => {
    const a = officialLanguageAverages(entries("lx"), ["en", "de"]);
    expect(a.en).toMatchObject({ n: 3, precision: 1, recall: 2.5 / 3, ndcg: 1 });
    expect(a.en.f1).toBeCloseTo((2 + 2 / 3) / 3, 12);
    expect(a.de).toMatchObject({ n: 2, precision: 0, f1: 0, ndcg: 0 });
    // [1, 0, 1(ndcg), 0(ndcg), 2/3] + overall ndcg 0.5 + average-en ndcg 1 + average-de ndcg 0
    const quirk = (1 + 0 + 1 + 0 + 2 / 3 + 0.5 + 1 + 0) / 8;
    expect(a.en.f1Ndcg).toBeCloseTo(quirk, 12);
    expect(a.de.f1Ndcg).toBeCloseTo(quirk, 12);
  });

  it("counts a question for a language whose code occurs anywhere in its id (the client's substring test)", () => {
    // every "demo:…" id contains "de": the client's German average takes in the English questions too
    const a = officialLanguageAverages(entries("demo"), ["en", "de"]);
    expect(a.de.n).toBe(5);
    expect(a.de.f1).toBeCloseTo((1 + 0 + 1 + 0 + 2 / 3) / 5, 12);
    expect(a.de.ndcg).toBeCloseTo(0.5, 12);
    expect(a.en.n).toBe(3);
  });

  it("one language: the overall averages (the client prints no per-language entry)", () => {
    const en = entries("lx").filter((e) => e.id.endsWith("-en"));
    const a = officialLanguageAverages(en, ["en"]);
    expect(a.en).toMatchObject({ n: 3, precision: 1, ndcg: 1 });
    expect(a.en.f1Ndcg).toBeCloseTo((1 + 1 + 2 / 3 + 1) / 4, 12);
    expect(officialLanguageAverages([{ id: "x:1-en", precision: 1, recall: 1, f1: 1 }], ["en"]).en.f1Ndcg).toBeUndefined();
  });
});
