// QALD JSON (QALD-9, QALD-9-plus, KGQAn's YAGO-100/DBLP-100): multilingual questions, gold SPARQL and SPARQL JSON
// answers. Records are read one by one: one with a malformed answer (or question) is reported and left out.
import { z } from "zod";
import { goldFromSparqlJson, sparqlJsonSchema } from "../gold";
import { checkItems, type BenchmarkItem, type QuestionType } from "../types";
import { parseWith, readJson } from "./read-file";
import { parseRecords, type RecordOptions } from "./records";

const qaldSchema = z.object({
  dataset: z.object({ id: z.string().optional() }).loose().optional(),
  questions: z.array(z.unknown()),
});

const recordSchema = z
  .object({
    id: z.union([z.number(), z.string()]),
    answertype: z.string().optional(),
    question: z.array(z.object({ language: z.string(), string: z.string() }).loose()),
    query: z.object({ sparql: z.string().optional() }).loose().optional(),
    answers: z.array(sparqlJsonSchema).optional(),
  })
  .loose();

function typeOf(answertype: string | undefined, sparql: string | undefined): QuestionType | undefined {
  if (answertype === "boolean") return "boolean";
  if (answertype === "number" && sparql && /\bCOUNT\s*\(/i.test(sparql)) return "count";
  return answertype ? "factoid" : undefined;
}

export function readQald(file: string, options: { idPrefix?: string } & RecordOptions = {}): BenchmarkItem[] {
  const parsed = parseWith(qaldSchema, readJson(file), file, "QALD JSON (questions[].question[{language,string}])");
  const prefix = options.idPrefix ?? parsed.dataset?.id ?? "qald";
  const items = parseRecords(recordSchema, parsed.questions, file, options).flatMap(({ data: q }) => {
    const questions = Object.fromEntries(q.question.filter((x) => x.string.trim()).map((x) => [x.language, x.string.trim()]));
    const en = questions.en ?? Object.values(questions)[0];
    if (!en) return []; // a record without any question text cannot be asked
    const sparql = q.query?.sparql?.trim() || undefined;
    const answer = q.answers?.[0];
    const type = typeOf(q.answertype, sparql);
    return [
      {
        id: `${prefix}:${q.id}`,
        question: en,
        ...(Object.keys(questions).length > 1 || !questions.en ? { questions } : {}),
        goldSparql: sparql,
        goldAnswers: answer ? goldFromSparqlJson(answer) : undefined,
        ...(type ? { type } : {}),
      },
    ];
  });
  return checkItems(items, file, options);
}
