// Benchmark items and gold answers: the common shape every dataset reader returns (zod-checked).
import { z } from "zod";
import { skipRecord, type RecordOptions } from "./datasets/records";

export const answerItemSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("uri"), value: z.string(), label: z.string().optional() }),
  z.object({ type: z.literal("literal"), value: z.string(), datatype: z.string().optional(), lang: z.string().optional() }),
]);

/** What the gold says: a set of items, a count, or a boolean (ASK). */
export const goldAnswerSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("items"), items: z.array(answerItemSchema) }),
  z.object({ kind: z.literal("count"), count: z.number() }),
  z.object({ kind: z.literal("boolean"), value: z.boolean() }),
]);
export type GoldAnswer = z.infer<typeof goldAnswerSchema>;

export const QUESTION_TYPES = ["factoid", "count", "boolean"] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

export const benchmarkItemSchema = z.object({
  /** unique within the dataset (e.g. "ck25:10", "qald9:99", "dbpedia-d:3.2") */
  id: z.string().min(1),
  /** the English question (for dialogues: the question as asked in the conversation) */
  question: z.string().min(1),
  /** the question per language code, when the dataset has several (or its only one is not English) */
  questions: z.record(z.string(), z.string()).optional(),
  /** asked per language (--question-lang): the language of `question`; the id then ends in `-<lang>` */
  lang: z.string().optional(),
  /** the standalone rewrite of a dialogue question */
  standalone: z.string().optional(),
  /** items with the same dialogueId form one conversation, ordered by turn (0-based) */
  dialogueId: z.string().optional(),
  turn: z.number().int().min(0).optional(),
  goldSparql: z.string().optional(),
  goldAnswers: goldAnswerSchema.optional(),
  /** dataset tags, e.g. CK25 SPARQL features (COUNT, GROUP, ORDER, RESULT_ORDER_MATTERS, …) */
  features: z.array(z.string()).optional(),
  type: z.enum(QUESTION_TYPES).optional(),
});
export type BenchmarkItem = z.infer<typeof benchmarkItemSchema>;

/**
 * Validates reader output; a bad item (a malformed record) or a repeated id is reported with its id and left out
 * (into `options.skipped`; without it the file is refused).
 */
export function checkItems(items: unknown[], source: string, options: RecordOptions = {}): BenchmarkItem[] {
  const ids = new Set<string>();
  return items.flatMap((raw, i) => {
    const r = benchmarkItemSchema.safeParse(raw);
    const id = typeof (raw as { id?: unknown })?.id === "string" ? (raw as { id: string }).id : `item ${i + 1}`;
    if (!r.success) {
      skipRecord(options, source, { id, reason: `invalid: ${r.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}` });
      return [];
    }
    if (ids.has(r.data.id)) {
      skipRecord(options, source, { id: r.data.id, reason: "duplicate id (the first record with it is kept)" });
      return [];
    }
    ids.add(r.data.id);
    return [r.data];
  });
}

/** The question type from the gold answer or the gold query when the dataset does not say. */
export function inferType(item: Pick<BenchmarkItem, "type" | "goldAnswers" | "goldSparql">): QuestionType {
  if (item.type) return item.type;
  if (item.goldAnswers?.kind === "boolean") return "boolean";
  if (item.goldAnswers?.kind === "count") return "count";
  const q = item.goldSparql ?? "";
  if (/\bASK\b/i.test(q) && !/\bSELECT\b/i.test(q)) return "boolean";
  if (/^\s*(PREFIX[^\n]*\n\s*)*SELECT[^{]*\(\s*COUNT\s*\(/i.test(q)) return "count";
  return "factoid";
}
