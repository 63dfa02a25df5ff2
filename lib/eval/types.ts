// Benchmark items and gold answers: the common shape every dataset reader returns (zod-checked).
import { z } from "zod";
import { AppError } from "@/lib/errors";

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
  /** the question per language code, when the dataset has several */
  questions: z.record(z.string(), z.string()).optional(),
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

/** Validates reader output; a bad item is a reader bug or a malformed file, reported with its index. */
export function checkItems(items: unknown[], source: string): BenchmarkItem[] {
  const ids = new Set<string>();
  return items.map((raw, i) => {
    const r = benchmarkItemSchema.safeParse(raw);
    if (!r.success) throw new AppError("bad_request", `${source}: item ${i + 1} is invalid: ${r.error.issues.map((x) => `${x.path.join(".")}: ${x.message}`).join("; ")}`);
    if (ids.has(r.data.id)) throw new AppError("bad_request", `${source}: duplicate item id "${r.data.id}".`);
    ids.add(r.data.id);
    return r.data;
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
