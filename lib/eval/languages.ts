// Asking a benchmark in one language or in all of them (`--question-lang <code|all>`): each question in a language is
// its own item with the official TEXT2SPARQL id `<id>-<lang>`, the same gold, and the dataset's other versions kept.
import { existsSync, readFileSync } from "node:fs";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { BenchmarkItem } from "./types";

export const ALL_LANGUAGES = "all";

/** The languages an item has a question in (a reader's single question without a language map is English). */
export function languagesOf(item: BenchmarkItem): string[] {
  return item.questions ? Object.keys(item.questions).filter((l) => item.questions![l]?.trim()) : [item.lang ?? "en"];
}

/** The item id without the language suffix this module added. */
export function baseIdOf(item: Pick<BenchmarkItem, "id" | "lang">): string {
  return item.lang && item.id.endsWith(`-${item.lang}`) ? item.id.slice(0, -(item.lang.length + 1)) : item.id;
}

export interface LanguageSelection {
  items: BenchmarkItem[];
  /** the languages asked, in the order they were first met (English first when present) */
  languages: string[];
  /** ids of items that have no question in the language asked (not run) */
  missing: string[];
}

const LANG_CODE = /^[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?$/;

/** Items in `lang` (`all`: every item once per language it has, question by question). */
export function selectLanguage(items: BenchmarkItem[], lang: string): LanguageSelection {
  if (lang !== ALL_LANGUAGES && !LANG_CODE.test(lang)) throw new AppError("bad_request", `--question-lang must be a language code such as en or de, or "all" (got "${lang}").`);
  const seen = new Set<string>();
  const out: BenchmarkItem[] = [];
  const missing: string[] = [];
  for (const item of items) {
    const have = languagesOf(item);
    const wanted = lang === ALL_LANGUAGES ? have : have.includes(lang) ? [lang] : [];
    if (wanted.length === 0) missing.push(item.id);
    for (const l of wanted) {
      seen.add(l);
      const question = item.questions?.[l] ?? item.question;
      out.push({ ...item, id: `${item.id}-${l}`, question, lang: l, ...(item.questions ? {} : { questions: { [l]: question } }) });
    }
  }
  const languages = [...seen].sort((a, b) => (a === "en" ? -1 : b === "en" ? 1 : 0));
  return { items: out, languages, missing };
}

/** A file of questions written in another language for items of a dataset (`--translations`), by item id. */
export const translationsFileSchema = z.object({
  language: z.string().regex(LANG_CODE, "must be a language code such as de"),
  /** who wrote them and how (kept with the file) */
  note: z.string().optional(),
  questions: z.record(z.string(), z.string().min(1)),
});

/**
 * The items the file has a question for, each with that question added in the file's language (the dataset's own
 * versions kept; a single question without a language map is its English one). Items the file does not name are left
 * out: the file says which questions a language comparison runs on. An id the dataset lacks is an error.
 */
export function withTranslations(items: BenchmarkItem[], file: string): { items: BenchmarkItem[]; language: string } {
  if (!existsSync(file)) throw new AppError("not_found", `Translations file not found: ${file}.`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new AppError("bad_request", `${file} is not JSON: ${(e as Error).message}.`);
  }
  const parsed = translationsFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new AppError("bad_request", `${file}: ${issue.path.join(".") || "file"}: ${issue.message} (expected { language, questions: { "<item id>": "<question>" } }).`);
  }
  const { language, questions } = parsed.data;
  const known = new Set(items.map((i) => i.id));
  const unknown = Object.keys(questions).filter((id) => !known.has(id));
  if (unknown.length) throw new AppError("bad_request", `${file}: ${unknown.length} id(s) are not in the dataset: ${unknown.slice(0, 5).join(", ")}${unknown.length > 5 ? ", …" : ""}.`);
  const out = items.flatMap((item) => {
    const text = questions[item.id];
    if (text === undefined) return [];
    return [{ ...item, questions: { ...(item.questions ?? { [item.lang ?? "en"]: item.question }), [language]: text.trim() } }];
  });
  return { items: out, language };
}
