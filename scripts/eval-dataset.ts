// The eval CLI's dataset steps (--strict, --question-lang, --gold): unreadable records and undeclared gold prefixes
// reported, the question language chosen, the official result set applied; each step says on stderr what it did.
import { AppError } from "@/lib/errors";
import { readDataset, type DatasetLoad, type LoadOptions } from "@/lib/eval/datasets";
import type { SkippedRecord } from "@/lib/eval/datasets/records";
import { readText2SparqlResultSet, withOfficialGold } from "@/lib/eval/datasets/text2sparql";
import { selectLanguage, withTranslations } from "@/lib/eval/languages";
import type { RunLoad } from "@/lib/eval/result-schema";
import type { BenchmarkItem } from "@/lib/eval/types";

export const DATASET_OPTIONS = {
  "question-lang": { type: "string" },
  translations: { type: "string" },
  strict: { type: "boolean", default: false },
} as const;

export const DATASET_USAGE = `  --question-lang <l>    ask each question in language l (en, de, …; ids become <id>-<l>), or "all": every language a
                         question has, each its own item (TEXT2SPARQL's <id>-<lang>), with a per-language table
  --translations <file>  questions in another language for some items ({ language, questions: { "<id>": "…" } }, e.g.
                         test/fixtures/eval/languages/wc2014-de.json): only those items run, with that version added
                         (use with --question-lang all for the same questions in both languages)
  --strict               refuse a dataset or result-set file with any unreadable record (default: report and skip it)`;

type Log = (line: string) => void;

function reportSkipped(file: string, skipped: SkippedRecord[], log: Log, what = "are not run"): void {
  if (skipped.length === 0) return;
  log(`note: ${skipped.length} record(s) of ${file} cannot be read and ${what}:`);
  for (const s of skipped) log(`  ${s.id}: ${s.reason}`);
}

/** The dataset's items, with what loading skipped and declared reported. */
export function loadItems(dataset: string, file: string, options: LoadOptions, log: Log = console.error): DatasetLoad {
  const load = readDataset(dataset, file, options);
  reportSkipped(file, load.skipped, log);
  if (load.prefixesDeclared.length) {
    const counts = new Map<string, number>();
    for (const d of load.prefixesDeclared) for (const p of d.prefixes) counts.set(p, (counts.get(p) ?? 0) + 1);
    log(`note: well-known prefixes declared in ${load.prefixesDeclared.length} gold queries (${[...counts].map(([p, n]) => `${p}: ${n}`).join(", ")})`);
  }
  return load;
}

/** The items a translations file covers, with its questions added (unchanged without --translations). */
export function itemsWithTranslations(items: BenchmarkItem[], file: string | undefined, log: Log = console.error): BenchmarkItem[] {
  if (file === undefined) return items;
  const t = withTranslations(items, file);
  log(`note: ${file}: ${t.items.length} question(s) in "${t.language}" added; only these items run`);
  return t.items;
}

/** The items in the language asked (`all`: one item per question and language); unchanged without --question-lang. */
export function itemsInLanguage(items: BenchmarkItem[], lang: string | undefined, log: Log = console.error): { items: BenchmarkItem[]; languages?: string[] } {
  if (lang === undefined) return { items };
  const selection = selectLanguage(items, lang);
  if (selection.items.length === 0) throw new AppError("bad_request", `No question of the dataset is in "${lang}".`);
  if (selection.missing.length) log(`note: ${selection.missing.length} question(s) have no "${lang}" text and are not run: ${selection.missing.slice(0, 10).join(", ")}${selection.missing.length > 10 ? ", …" : ""}`);
  log(`note: asking ${selection.items.length} items in ${selection.languages.join(", ")} (ids <id>-<lang>)`);
  return { items: selection.items, languages: selection.languages };
}

/** Items scored against the official result set (gold per item, order_required applied). */
export function itemsWithOfficialGold(items: BenchmarkItem[], file: string, strict: boolean, log: Log = console.error): { items: BenchmarkItem[]; skipped: SkippedRecord[] } {
  const skipped: SkippedRecord[] = [];
  const set = readText2SparqlResultSet(file, { skipped });
  if (strict && skipped.length) throw new AppError("bad_request", `${file}: ${skipped.length} entr(ies) cannot be read (--strict): ${skipped.map((s) => `${s.id}: ${s.reason}`).join("; ")}.`);
  reportSkipped(file, skipped, log, "are not used");
  if (set.orderRequired) log(`note: ${file} lists ${set.orderRequired.size} question(s) whose order is scored (order_required)`);
  const out = withOfficialGold(items, set);
  if (out.missing.length) log(`note: ${out.missing.length} item(s) are not in ${file}; their gold is recomputed on the KG: ${out.missing.slice(0, 10).join(", ")}`);
  return { items: out.items, skipped };
}

/** What the run records about loading (result.json config.load). */
export function runLoad(load: DatasetLoad, extra: { officialSkipped?: SkippedRecord[]; questionLang?: string; languages?: string[] }): RunLoad {
  return {
    skipped: [...load.skipped, ...(extra.officialSkipped ?? [])],
    goldPrefixesDeclared: load.prefixesDeclared.length,
    ...(extra.questionLang ? { questionLang: extra.questionLang, languages: extra.languages ?? [] } : {}),
  };
}
