// A suite manifest (`npm run eval -- --suite <manifest.tsv>`): one KG per line with its questions, paths relative to the
// manifest. Columns by header name: db, kg, questions (required), dataset, lang, domain (optional); others are ignored.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { DATASETS, isDatasetName, type DatasetName } from "./datasets";

export interface SuiteEntry {
  /** the KG's name in the suite (unique); question ids become `<db>/<id>` */
  db: string;
  /** the KG file(s), absolute, comma-joined as --kg takes them */
  kg: string;
  /** the question file, absolute */
  questions: string;
  dataset: DatasetName;
  /** the language the questions are asked in when the file says none (default en) */
  lang?: string;
  domain?: string;
}

export interface SuiteManifest {
  file: string;
  entries: SuiteEntry[];
}

const DB_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const LANG_CODE = /^[a-z]{2,3}$/;

const rowSchema = z.object({
  db: z.string().regex(DB_NAME, "must be letters, digits, _ . - (it names a folder)"),
  kg: z.string().min(1, "is empty"),
  questions: z.string().min(1, "is empty"),
  dataset: z.string().optional(),
  lang: z.string().regex(LANG_CODE, "must be a language code such as en or de").optional(),
  domain: z.string().optional(),
});

/** The dataset reader for a question file: the `dataset` column, else its extension (.json QALD, .jsonl, .yml TEXT2SPARQL). */
export function datasetOfFile(file: string, column?: string): DatasetName | undefined {
  if (column) return isDatasetName(column) ? column : undefined;
  const ext = path.extname(file).toLowerCase();
  return ext === ".json" ? "qald" : ext === ".jsonl" ? "jsonl" : ext === ".yml" || ext === ".yaml" ? "text2sparql" : undefined;
}

/** Reads and checks a manifest; a bad line or a missing file is a clear error naming the line. */
export function readSuiteManifest(file: string): SuiteManifest {
  if (!existsSync(file)) throw new AppError("not_found", `Suite manifest not found: ${file}.`);
  const dir = path.dirname(path.resolve(file));
  const lines = readFileSync(file, "utf8").split(/\r?\n/);
  const headerAt = lines.findIndex((l) => l.trim() && !l.startsWith("#"));
  if (headerAt < 0) throw new AppError("bad_request", `${file}: the manifest is empty (expected a header line: db, kg, questions).`);
  const header = lines[headerAt].split("\t").map((h) => h.trim());
  const missing = ["db", "kg", "questions"].filter((c) => !header.includes(c));
  if (missing.length) throw new AppError("bad_request", `${file}: the header has no column ${missing.join(", ")} (tab-separated; found: ${header.join(", ")}).`);
  const entries: SuiteEntry[] = [];
  const seen = new Set<string>();
  lines.forEach((line, i) => {
    if (i <= headerAt || !line.trim() || line.startsWith("#")) return;
    const where = `${file}, line ${i + 1}`;
    const cells = line.split("\t");
    const raw = Object.fromEntries(header.map((h, j) => [h, cells[j]?.trim() || undefined]));
    const row = rowSchema.safeParse(raw);
    if (!row.success) {
      const issue = row.error.issues[0];
      throw new AppError("bad_request", `${where}: column ${String(issue.path[0])} ${issue.code === "invalid_type" ? "is missing" : issue.message}.`);
    }
    const { db, kg, questions, dataset, lang, domain } = row.data;
    if (seen.has(db)) throw new AppError("bad_request", `${where}: db "${db}" appears twice.`);
    seen.add(db);
    const kgFiles = kg.split(",").map((k) => k.trim()).filter(Boolean).map((k) => (/^https?:\/\//i.test(k) ? k : path.resolve(dir, k)));
    for (const k of kgFiles) if (!/^https?:\/\//i.test(k) && !existsSync(k)) throw new AppError("not_found", `${where}: KG file not found: ${k}.`);
    const questionsFile = path.resolve(dir, questions);
    if (!existsSync(questionsFile)) throw new AppError("not_found", `${where}: question file not found: ${questionsFile}.`);
    const ds = datasetOfFile(questionsFile, dataset);
    if (!ds) throw new AppError("bad_request", `${where}: cannot tell the dataset of ${questions}: add a dataset column (${DATASETS.join(", ")}).`);
    entries.push({ db, kg: kgFiles.join(","), questions: questionsFile, dataset: ds, ...(lang ? { lang } : {}), ...(domain ? { domain } : {}) });
  });
  if (entries.length === 0) throw new AppError("bad_request", `${file}: the manifest lists no KG.`);
  return { file: path.resolve(file), entries };
}
