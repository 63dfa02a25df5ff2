// Our own JSONL benchmark format (docs/eval.md): one question per line, optional dialogue/turn, gold SPARQL and/or answers.
import { z } from "zod";
import { goldFromSparqlJson, sparqlJsonSchema } from "../gold";
import { answerItemSchema, checkItems, QUESTION_TYPES, type BenchmarkItem, type GoldAnswer } from "../types";
import { readText } from "./read-file";
import { skipRecord, zodReason, type RecordOptions } from "./records";

const answerValue = z.union([z.string(), z.number(), z.boolean(), answerItemSchema]);

export const jsonlLineSchema = z.object({
  id: z.union([z.string().min(1), z.number()]).optional(),
  question: z.string().min(1),
  questions: z.record(z.string(), z.string()).optional(),
  standalone: z.string().optional(),
  dialogue: z.union([z.string().min(1), z.number()]).optional(),
  turn: z.number().int().min(0).optional(),
  sparql: z.string().optional(),
  /** a boolean (ASK), {count}, a SPARQL JSON result, or a list of values (IRIs as absolute http(s) strings) */
  answers: z.union([z.boolean(), z.object({ count: z.number() }), sparqlJsonSchema, z.array(answerValue)]).optional(),
  type: z.enum(QUESTION_TYPES).optional(),
  features: z.array(z.string()).optional(),
});
export type JsonlLine = z.infer<typeof jsonlLineSchema>;

const IRI = /^(https?|urn):\S+$/i;

function goldOf(answers: NonNullable<JsonlLine["answers"]>): GoldAnswer {
  if (typeof answers === "boolean") return { kind: "boolean", value: answers };
  if (Array.isArray(answers)) {
    return {
      kind: "items",
      items: answers.map((a) => {
        if (typeof a === "object") return a;
        if (typeof a === "string" && IRI.test(a)) return { type: "uri" as const, value: a };
        return { type: "literal" as const, value: String(a) };
      }),
    };
  }
  if ("count" in answers) return { kind: "count", count: answers.count };
  return goldFromSparqlJson(answers);
}

/** A line that is not JSON or not a question is reported as `line N` and left out (refused without `options.skipped`). */
export function readJsonl(file: string, options: RecordOptions = {}): BenchmarkItem[] {
  const turns = new Map<string, number>();
  const items = readText(file)
    .split("\n")
    .map((line, i) => ({ line: line.trim(), n: i + 1 }))
    .filter(({ line }) => line && !line.startsWith("//"))
    .flatMap(({ line, n }) => {
      let raw: unknown;
      try {
        raw = JSON.parse(line);
      } catch (e) {
        skipRecord(options, file, { id: `line ${n}`, reason: `not JSON: ${(e as Error).message}` });
        return [];
      }
      const r = jsonlLineSchema.safeParse(raw);
      if (!r.success) {
        skipRecord(options, file, { id: `line ${n}`, reason: zodReason(r.error) });
        return [];
      }
      const q = r.data;
      const dialogueId = q.dialogue === undefined ? undefined : String(q.dialogue);
      // Turns default to the order of the dialogue's lines in the file.
      const turn = dialogueId === undefined ? undefined : (q.turn ?? turns.get(dialogueId) ?? 0);
      if (dialogueId !== undefined) turns.set(dialogueId, (turn ?? 0) + 1);
      return [{
        id: q.id !== undefined ? String(q.id) : dialogueId !== undefined ? `${dialogueId}.${turn}` : String(n),
        question: q.question,
        questions: q.questions,
        standalone: q.standalone,
        dialogueId,
        turn,
        goldSparql: q.sparql,
        goldAnswers: q.answers === undefined ? undefined : goldOf(q.answers),
        type: q.type,
        features: q.features,
      }];
    });
  return checkItems(items, file, options);
}
