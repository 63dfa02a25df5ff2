// The dataset registry: `--dataset <name>` → reader, and the default file for CK25 beside the KG. Loading reports the
// records it could not read (left out; --strict refuses the file) and declares well-known prefixes in gold queries.
import { existsSync } from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { BenchmarkItem } from "../types";
import { readChattyDialogues } from "./chatty-dialogue";
import { readJsonl } from "./jsonl";
import { readLcquad } from "./lcquad";
import { readQald } from "./qald";
import type { SkippedRecord } from "./records";
import { readText2SparqlQuestions } from "./text2sparql";

export const DATASETS = ["ck25", "text2sparql", "qald", "lcquad", "chatty-dialogue", "jsonl"] as const;
export type DatasetName = (typeof DATASETS)[number];

export function isDatasetName(name: string): name is DatasetName {
  return (DATASETS as readonly string[]).includes(name);
}

export interface LoadOptions {
  /** Chatty-KG dialogues: the gold-answer file (found beside the dialogues by default) */
  goldFile?: string;
  /** LC-QuAD: a file of ids to keep */
  idsFile?: string;
  /** refuse the file when any record cannot be read (default: report and leave it out) */
  strict?: boolean;
}

export interface DatasetLoad {
  items: BenchmarkItem[];
  /** records that could not be read, with the reason; they are not run */
  skipped: SkippedRecord[];
  /** gold queries that used well-known prefixes (rdfs:, xsd:, …) undeclared and got them declared, by item id */
  prefixesDeclared: { id: string; prefixes: string[] }[];
}

/** Reads a dataset file record by record (see DatasetLoad); `strict` turns any unreadable record into an error. */
export function readDataset(dataset: string, file: string, options: LoadOptions = {}): DatasetLoad {
  if (!isDatasetName(dataset)) throw new AppError("bad_request", `Unknown dataset "${dataset}". Available: ${DATASETS.join(", ")}.`);
  if (!existsSync(file)) throw new AppError("not_found", `Dataset file not found: ${file}.`);
  const skipped: SkippedRecord[] = [];
  const records = { skipped };
  const items = (() => {
    switch (dataset) {
      case "ck25":
      case "text2sparql":
        return readText2SparqlQuestions(file, records);
      case "qald":
        return readQald(file, records);
      case "lcquad":
        return readLcquad(file, { idsFile: options.idsFile });
      case "chatty-dialogue":
        return readChattyDialogues(file, { goldFile: options.goldFile });
      case "jsonl":
        return readJsonl(file, records);
    }
  })();
  if (options.strict && skipped.length) {
    const list = skipped.map((s) => `${s.id}: ${s.reason}`).join("; ");
    throw new AppError("bad_request", `${file}: ${skipped.length} record(s) cannot be read (--strict): ${list}.`, { where: { source: file } });
  }
  const prefixesDeclared: DatasetLoad["prefixesDeclared"] = [];
  const declared = items.map((item) => {
    const sparql = item.goldSparql && declareGoldPrefixes(item.goldSparql);
    if (!sparql || sparql.prefixes.length === 0) return item;
    prefixesDeclared.push({ id: item.id, prefixes: sparql.prefixes });
    return { ...item, goldSparql: sparql.query };
  });
  return { items: declared, skipped, prefixesDeclared };
}

/** The gold query as it will run (see lib/kg/well-known-prefixes.ts); one that does not parse is left for the run to report. */
function declareGoldPrefixes(sparql: string): { query: string; prefixes: string[] } | undefined {
  try {
    const parsed = parseReadOnly(sparql);
    return { query: parsed.query, prefixes: parsed.declaredPrefixes };
  } catch {
    return undefined;
  }
}

/** The items of a dataset file; unreadable records are left out (readDataset says which). */
export function loadDataset(dataset: string, file: string, options: LoadOptions = {}): BenchmarkItem[] {
  return readDataset(dataset, file, options).items;
}

/**
 * CK25's questions.yml for a KG file inside the dataset (`ck25/graphs/prod-inst.ttl` → `ck25/questions.yml`):
 * looked for beside the KG's parent folder, then beside the KG.
 */
export function defaultCk25File(kgArg: string): string | undefined {
  if (/^https?:\/\//i.test(kgArg)) return undefined;
  const first = path.resolve(kgArg.split(",")[0].trim());
  return [path.join(path.dirname(path.dirname(first)), "questions.yml"), path.join(path.dirname(first), "questions.yml")].find(existsSync);
}

/** The official TEXT2SPARQL gold for a CK25 KG in the shared data layout (`data/ck25/graphs/x.ttl` → `data/text2sparql25/…`). */
export function defaultCk25ResultSet(kgArg: string): string | undefined {
  if (/^https?:\/\//i.test(kgArg)) return undefined;
  const first = path.resolve(kgArg.split(",")[0].trim());
  const dataDir = path.dirname(path.dirname(path.dirname(first)));
  const candidate = path.join(dataDir, "text2sparql25", "docs", "benchmark", "ck25_true_result_set.json");
  return existsSync(candidate) ? candidate : undefined;
}
