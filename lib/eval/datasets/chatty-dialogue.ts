// Chatty-KG multi-turn benchmarks: `data/<kg>_e11_20_5_original.json` (dialogue, standalone rewrites, gold SPARQL) joined
// with the gold answers in `files_processing/<kg>_e11_20_5_original_{dialogue,standalone}.json` (ids run across dialogues).
import { existsSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { goldFromSparqlJson, sparqlJsonSchema } from "../gold";
import { checkItems, type BenchmarkItem } from "../types";
import { parseWith, readJson } from "./read-file";

const dialoguesSchema = z.object({
  data: z.array(
    z
      .object({
        seed_entity: z.string().optional(),
        dialogue: z.array(z.string()).min(1),
        original: z.array(z.string()).optional(),
        queries: z.array(z.string()).optional(),
      })
      .loose(),
  ),
});

const goldFileSchema = z.object({
  dataset: z.object({ id: z.string() }).loose().optional(),
  questions: z.array(z.object({ id: z.number(), question: z.string(), answers: z.array(sparqlJsonSchema) }).loose()),
});

const GOLD_SUFFIX = /_(dialogue|standalone)\.json$/;

/** The pair of files for a path to either of them: the dialogues file and (when found) the dialogue-form gold file. */
export function chattyDialogueFiles(file: string, goldFile?: string): { dialogues: string; gold?: string } {
  if (GOLD_SUFFIX.test(file)) {
    const base = path.basename(file).replace(GOLD_SUFFIX, ".json");
    const dialogues = [path.join(path.dirname(file), "..", "data", base), path.join(path.dirname(file), base)].find(existsSync);
    if (!dialogues) {
      throw new AppError("not_found", `${file} holds gold answers only; the dialogues file ${base} was not found in ../data/ or beside it. Pass it as --file and this one as --gold.`);
    }
    return { dialogues, gold: goldFile ?? file };
  }
  const base = path.basename(file).replace(/\.json$/, "");
  const candidate = path.join(path.dirname(file), "..", "files_processing", `${base}_dialogue.json`);
  return { dialogues: file, gold: goldFile ?? (existsSync(candidate) ? candidate : undefined) };
}

/**
 * One item per turn: `question` is the conversational form, `standalone` the rewrite; ids are `<name>:<dialogue>.<turn>`
 * (both 0-based). Gold answers come from the gold file when there is one; otherwise only the gold SPARQL is set.
 */
export function readChattyDialogues(file: string, options: { goldFile?: string; name?: string } = {}): BenchmarkItem[] {
  const files = chattyDialogueFiles(file, options.goldFile);
  const parsed = parseWith(dialoguesSchema, readJson(files.dialogues), files.dialogues, "a Chatty-KG dialogues file ({ data: [{ dialogue, original, queries }] })");
  const gold = files.gold ? parseWith(goldFileSchema, readJson(files.gold), files.gold, "a Chatty-KG gold-answer file ({ questions: [{ id, question, answers }] })") : null;
  const name = options.name ?? path.basename(files.dialogues).replace(/_e11_20_5_original\.json$|\.json$/, "");
  const total = parsed.data.reduce((n, d) => n + d.dialogue.length, 0);
  if (gold && gold.questions.length !== total) {
    throw new AppError("bad_request", `${files.gold} has ${gold.questions.length} answers but ${files.dialogues} has ${total} questions; they do not belong together.`);
  }
  const goldById = new Map(gold?.questions.map((q) => [q.id, q]) ?? []);
  let flat = 0;
  const items = parsed.data.flatMap((d, di) =>
    d.dialogue.map((question, turn) => {
      const g = goldById.get(flat++);
      return {
        id: `${name}:${di}.${turn}`,
        question: question.trim(),
        standalone: d.original?.[turn]?.trim(),
        dialogueId: `${name}:${di}`,
        turn,
        goldSparql: d.queries?.[turn]?.trim(),
        goldAnswers: g?.answers[0] ? goldFromSparqlJson(g.answers[0]) : undefined,
      };
    }),
  );
  return checkItems(items, files.dialogues);
}
