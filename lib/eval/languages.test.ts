// Asking a benchmark per language: ids <id>-<lang>, the question in that language, the other versions kept.
import { describe, expect, it } from "vitest";
import { baseIdOf, languagesOf, selectLanguage } from "./languages";
import type { BenchmarkItem } from "./types";

const items: BenchmarkItem[] = [
  { id: "lx:1", question: "Who wrote Dune?", questions: { en: "Who wrote Dune?", de: "Wer hat Dune geschrieben?" }, goldSparql: "ASK {}" },
  { id: "lx:2", question: "Did Austen write Emma?" },
  { id: "lx:3", question: "¿Quién escribió Emma?", questions: { es: "¿Quién escribió Emma?" } },
];

describe("selectLanguage", () => {
  it("all: every question once per language it has, with the official ids and the same gold", () => {
    const s = selectLanguage(items, "all");
    expect(s.items.map((i) => [i.id, i.lang, i.question])).toEqual([
      ["lx:1-en", "en", "Who wrote Dune?"],
      ["lx:1-de", "de", "Wer hat Dune geschrieben?"],
      ["lx:2-en", "en", "Did Austen write Emma?"],
      ["lx:3-es", "es", "¿Quién escribió Emma?"],
    ]);
    expect(s.languages).toEqual(["en", "de", "es"]);
    expect(s.missing).toEqual([]);
    // the translator role may read the dataset's English version of the same question
    expect(s.items[1]).toMatchObject({ goldSparql: "ASK {}", questions: { en: "Who wrote Dune?" } });
    expect(baseIdOf(s.items[1])).toBe("lx:1");
  });

  it("one language: only the questions that have it, the others reported as missing", () => {
    const s = selectLanguage(items, "de");
    expect(s.items.map((i) => i.id)).toEqual(["lx:1-de"]);
    expect(s.missing).toEqual(["lx:2", "lx:3"]);
    expect(languagesOf(items[1])).toEqual(["en"]);
  });

  it("refuses something that is not a language code", () => {
    expect(() => selectLanguage(items, "german!")).toThrow(/--question-lang must be a language code/);
  });
});
