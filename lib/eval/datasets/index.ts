// The dataset registry: `--dataset <name>` → reader, and the default file for CK25 beside the KG.
import { existsSync } from "node:fs";
import path from "node:path";
import { AppError } from "@/lib/errors";
import type { BenchmarkItem } from "../types";
import { readChattyDialogues } from "./chatty-dialogue";
import { readJsonl } from "./jsonl";
import { readLcquad } from "./lcquad";
import { readQald } from "./qald";
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
}

export function loadDataset(dataset: string, file: string, options: LoadOptions = {}): BenchmarkItem[] {
  if (!isDatasetName(dataset)) throw new AppError("bad_request", `Unknown dataset "${dataset}". Available: ${DATASETS.join(", ")}.`);
  if (!existsSync(file)) throw new AppError("not_found", `Dataset file not found: ${file}.`);
  switch (dataset) {
    case "ck25":
    case "text2sparql":
      return readText2SparqlQuestions(file);
    case "qald":
      return readQald(file);
    case "lcquad":
      return readLcquad(file, { idsFile: options.idsFile });
    case "chatty-dialogue":
      return readChattyDialogues(file, { goldFile: options.goldFile });
    case "jsonl":
      return readJsonl(file);
  }
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
