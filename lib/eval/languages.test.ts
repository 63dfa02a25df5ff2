// Asking a benchmark per language: ids <id>-<lang>, the question in that language, the other versions kept.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { baseIdOf, languagesOf, selectLanguage, withTranslations } from "./languages";
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

describe("withTranslations (--translations)", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "translations-"));
  const file = (body: unknown) => {
    const f = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(f, typeof body === "string" ? body : JSON.stringify(body));
    return f;
  };

  it("adds the file's version to the items it names, keeps their own, and runs only those", () => {
    const t = withTranslations(items, file({ language: "de", questions: { "lx:2": "Hat Austen Emma geschrieben?" } }));
    expect(t.language).toBe("de");
    expect(t.items.map((i) => [i.id, i.questions])).toEqual([["lx:2", { en: "Did Austen write Emma?", de: "Hat Austen Emma geschrieben?" }]]);
    expect(selectLanguage(t.items, "all").items.map((i) => i.id)).toEqual(["lx:2-en", "lx:2-de"]);
  });

  it("refuses an id the dataset lacks, a malformed file and a missing one, saying which", () => {
    expect(() => withTranslations(items, file({ language: "de", questions: { "lx:9": "?" } }))).toThrow(/1 id\(s\) are not in the dataset: lx:9/);
    expect(() => withTranslations(items, file({ language: "German", questions: {} }))).toThrow(/language: must be a language code/);
    expect(() => withTranslations(items, file("{"))).toThrow(/is not JSON/);
    expect(() => withTranslations(items, path.join(dir, "none.json"))).toThrow(/Translations file not found/);
  });

  it("the project's German sets name 40 questions each", async () => {
    const { readFileSync } = await import("node:fs");
    for (const set of ["wc2014", "talk2powersystem"]) {
      const f = JSON.parse(readFileSync(`test/fixtures/eval/languages/${set}-de.json`, "utf8")) as { language: string; questions: Record<string, string> };
      expect(f.language).toBe("de");
      expect(Object.keys(f.questions)).toHaveLength(40);
    }
  });
});
