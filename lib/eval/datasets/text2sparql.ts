// TEXT2SPARQL'25 / CK25 `questions.yml` (multilingual questions, features, gold SPARQL) and the flattened result-set file.
import { parse as parseYaml } from "yaml";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { goldFromFlat } from "../gold";
import { checkItems, type BenchmarkItem, type GoldAnswer } from "../types";
import { parseWith, readJson, readText } from "./read-file";

const questionsYamlSchema = z.object({
  dataset: z.object({ id: z.string().optional(), prefix: z.string().min(1) }).loose(),
  questions: z.array(
    z
      .object({
        id: z.union([z.number(), z.string()]),
        question: z.record(z.string(), z.string()),
        features: z.array(z.string()).optional(),
        query: z.object({ sparql: z.string() }).optional(),
      })
      .loose(),
  ),
});

/** Item ids are `<prefix>:<id>` (e.g. "ck25:10"); the official files name the English question `ck25:10-en`. */
export function readText2SparqlQuestions(file: string): BenchmarkItem[] {
  let data: unknown;
  try {
    data = parseYaml(readText(file));
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw new AppError("bad_request", `${file} is not valid YAML: ${(e as Error).message}.`, { cause: e });
  }
  const parsed = parseWith(questionsYamlSchema, data, file, "a TEXT2SPARQL questions file (dataset.prefix, questions[].question.en)");
  const prefix = parsed.dataset.prefix;
  return checkItems(
    parsed.questions.map((q) => {
      const en = q.question.en ?? Object.values(q.question)[0];
      return {
        id: `${prefix}:${q.id}`,
        question: en,
        ...(Object.keys(q.question).length > 1 ? { questions: q.question } : {}),
        goldSparql: q.query?.sparql,
        features: q.features,
        ...(q.features?.includes("ASK") ? { type: "boolean" as const } : q.features?.includes("COUNT") && !q.features.includes("GROUP") ? { type: "count" as const } : {}),
      };
    }),
    file,
  );
}

const resultSetSchema = z.record(z.string(), z.record(z.string(), z.number()));

/** The official flattened gold (`ck25_true_result_set.json`): keyed by item id, language suffix dropped. */
export function readText2SparqlResultSet(file: string): Map<string, { flat: Record<string, number>; gold: GoldAnswer }> {
  const parsed = parseWith(resultSetSchema, readJson(file), file, "a TEXT2SPARQL result-set file ({ \"<prefix>:<id>-<lang>\": { value: 1 } })");
  const out = new Map<string, { flat: Record<string, number>; gold: GoldAnswer }>();
  for (const [key, flat] of Object.entries(parsed)) {
    const id = key.replace(/-[a-z]{2}(_[A-Z]{2})?$/, "");
    if (!out.has(id)) out.set(id, { flat, gold: goldFromFlat(flat) });
  }
  return out;
}
