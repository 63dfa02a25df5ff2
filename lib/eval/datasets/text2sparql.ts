// TEXT2SPARQL'25/'26 `questions.yml` (multilingual questions, features, gold SPARQL) and the flattened result-set file
// (2026: with a top-level "order_required" list). Records are read one by one: a bad one is reported and left out.
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { goldFromFlat } from "../gold";
import { splitQname } from "../queries-file";
import { ORDER_MATTERS } from "../text2sparql-metrics";
import { checkItems, type BenchmarkItem, type GoldAnswer } from "../types";
import { parseWith, readJson, readText } from "./read-file";
import { parseRecords, skipRecord, zodReason, type RecordOptions } from "./records";

const questionsFileSchema = z.object({
  dataset: z.object({ id: z.string().optional(), prefix: z.string().min(1) }).loose(),
  questions: z.array(z.unknown()),
});

const questionSchema = z
  .object({
    id: z.union([z.number(), z.string()]),
    question: z.record(z.string(), z.string()).refine((q) => Object.keys(q).length > 0, "no question text"),
    features: z.array(z.string()).optional(),
    query: z.object({ sparql: z.string() }).optional(),
  })
  .loose();

/** Item ids are `<prefix>:<id>` (e.g. "ck25:10"); the official files name the question in a language `ck25:10-en`. */
export function readText2SparqlQuestions(file: string, options: RecordOptions = {}): BenchmarkItem[] {
  let data: unknown;
  try {
    data = parseYaml(readText(file));
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("bad_request", `${file} is not valid YAML: ${(e as Error).message}.`, { cause: e });
  }
  const parsed = parseWith(questionsFileSchema, data, file, "a TEXT2SPARQL questions file (dataset.prefix, questions[].question.en)");
  const prefix = parsed.dataset.prefix;
  return checkItems(
    parseRecords(questionSchema, parsed.questions, file, options).map(({ data: q }) => {
      const en = q.question.en ?? Object.values(q.question)[0];
      return {
        id: `${prefix}:${q.id}`,
        question: en,
        ...(Object.keys(q.question).length > 1 || !q.question.en ? { questions: q.question } : {}),
        goldSparql: q.query?.sparql,
        features: q.features,
        ...(q.features?.includes("ASK") ? { type: "boolean" as const } : q.features?.includes("COUNT") && !q.features.includes("GROUP") ? { type: "count" as const } : {}),
      };
    }),
    file,
    options,
  );
}

export interface ResultSetEntry {
  flat: Record<string, number>;
  gold: GoldAnswer;
}

export interface Text2SparqlResultSet {
  /** by item id without language ("ck25:10"): the first language's entry, as files before 2026 were read */
  byId: Map<string, ResultSetEntry>;
  /** by the file's own key ("ck25:10-en") */
  byQname: Map<string, ResultSetEntry>;
  /** the 2026 "order_required" list (qnames scored with ndcg), when the file has one */
  orderRequired?: Set<string>;
}

const flatSchema = z.record(z.string(), z.number());

/**
 * The official flattened gold (`ck25_true_result_set.json`): `{ "<prefix>:<id>-<lang>": { value: 1 } }`, and since 2026
 * `"order_required": [qname, …]`. An entry that is not a value → number map is reported and left out.
 */
export function readText2SparqlResultSet(file: string, options: RecordOptions = {}): Text2SparqlResultSet {
  const data = parseWith(z.record(z.string(), z.unknown()), readJson(file), file, 'a TEXT2SPARQL result-set file ({ "<prefix>:<id>-<lang>": { value: 1 } })');
  const out: Text2SparqlResultSet = { byId: new Map(), byQname: new Map() };
  for (const [key, raw] of Object.entries(data)) {
    if (key === "order_required") {
      const list = z.array(z.string()).safeParse(raw);
      if (list.success) out.orderRequired = new Set(list.data);
      else skipRecord(options, file, { id: key, reason: `not a list of question ids (${zodReason(list.error)}); no question is scored by order` });
      continue;
    }
    const flat = flatSchema.safeParse(raw);
    if (!flat.success) {
      skipRecord(options, file, { id: key, reason: `not a { value: number } result (${zodReason(flat.error)})` });
      continue;
    }
    const entry = { flat: flat.data, gold: goldFromFlat(flat.data) };
    out.byQname.set(key, entry);
    const { id } = splitQname(key);
    if (!out.byId.has(id)) out.byId.set(id, entry);
  }
  return out;
}

/**
 * Items scored against an official result set: the gold of the item's own entry (`<id>-<lang>` when asked per
 * language, else the first entry of its id). A file with an "order_required" list decides which questions are scored
 * by order (RESULT_ORDER_MATTERS set or removed per item), as the official client does; `missing` lists items without gold.
 */
export function withOfficialGold(items: BenchmarkItem[], set: Text2SparqlResultSet): { items: BenchmarkItem[]; missing: string[] } {
  const missing: string[] = [];
  const ordered = set.orderRequired;
  const orderedIds = ordered ? new Set([...ordered].map((q) => splitQname(q).id)) : undefined;
  const out = items.map((item): BenchmarkItem => {
    const entry = item.lang ? set.byQname.get(item.id) : set.byId.get(item.id);
    if (!entry) missing.push(item.id);
    const withGold = entry ? { ...item, goldAnswers: entry.gold } : item;
    if (!ordered) return withGold;
    const matters = item.lang ? ordered.has(item.id) : orderedIds!.has(item.id);
    const features = (item.features ?? []).filter((f) => f !== ORDER_MATTERS);
    return { ...withGold, features: matters ? [...features, ORDER_MATTERS] : features };
  });
  return { items: out, missing };
}
