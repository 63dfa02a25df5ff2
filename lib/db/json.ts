// zod schemas for the JSON columns of a turn: checked on the way in and parsed on the way out of the database.
import { z } from "zod";
import { pipelineConfigSchema, STAGES, type Answer, type DerivationEvent, type TurnStats } from "@/lib/pipeline/types";
export { attemptChangeSchema, type AttemptChange } from "@/lib/pipeline/corrections";

export const TURN_STATUSES = ["pending", "running", "done", "failed", "interrupted"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

export const TURN_SOURCES = ["kg", "llm", "none", "conversation", "failed"] as const;
export type TurnSource = (typeof TURN_SOURCES)[number];

export const KG_SOURCE_KINDS = ["sample", "upload", "endpoint"] as const;
export type KgSourceKind = (typeof KG_SOURCE_KINDS)[number];

const cite = z.array(z.string()).optional();
const answerItemSchema = z.union([
  z.object({ type: z.literal("uri"), value: z.string(), label: z.string().optional(), cite }),
  z.object({ type: z.literal("literal"), value: z.string(), datatype: z.string().optional(), lang: z.string().optional(), cite }),
]);
const citations = z
  .array(z.object({ id: z.string(), kind: z.enum(["sql", "sql-row", "passage"]), text: z.string(), iris: z.array(z.string()), query: z.string().optional() }))
  .optional();

export const answerSchema: z.ZodType<Answer> = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("items"), items: z.array(answerItemSchema), citations }),
  // a row has one cell per column (null = unbound); columns are in the query's projection order
  z
    .object({ kind: z.literal("table"), columns: z.array(z.string()), rows: z.array(z.array(answerItemSchema.nullable())), citations })
    .refine((t) => t.rows.every((r) => r.length === t.columns.length), "every table row needs one cell per column"),
  z.object({ kind: z.literal("count"), count: z.number(), citations }),
  z.object({ kind: z.literal("boolean"), value: z.boolean(), citations }),
  z.object({ kind: z.literal("none"), reason: z.string(), citations }),
  z.object({ kind: z.literal("chat"), text: z.string() }),
  z.object({ kind: z.literal("clarify"), text: z.string() }),
]);

const stageSchema = z.enum(STAGES);

// Events are checked by their discriminating fields only: payloads (inputs, outputs, LLM messages) are free-form.
const eventSchema = z.looseObject({
  type: z.enum(["stage-start", "stage-end", "llm-call", "tool-call", "sparql", "warning", "progress"]),
  stage: stageSchema,
});
export const traceSchema = z.array(eventSchema) as unknown as z.ZodType<DerivationEvent[]>;

export const statsSchema: z.ZodType<TurnStats> = z.object({
  ms: z.number(),
  llmCalls: z.number(),
  tokensIn: z.number(),
  tokensOut: z.number(),
  queries: z.number(),
  stageMs: z.partialRecord(stageSchema, z.number()),
  toolCalls: z.number().optional(),
});

export const turnErrorSchema = z.object({ code: z.string(), message: z.string(), stage: stageSchema.optional() });
export type TurnError = z.infer<typeof turnErrorSchema>;

/** What a turn ran with: the pipeline parameters plus the KG and the model, so a turn can be re-run or compared. */
export const turnConfigSchema = pipelineConfigSchema.extend({
  kg: z.object({ id: z.string().min(1), name: z.string().optional() }),
  llm: z.object({ provider: z.string(), model: z.string() }).optional(),
});
export type TurnConfig = z.infer<typeof turnConfigSchema>;
export type TurnConfigInput = z.input<typeof turnConfigSchema>;

export const sparqlListSchema = z.array(z.string());

/** Free-form description of a KG source (file paths and formats, or an endpoint URL and profile). */
export const kgSourceSpecSchema = z.record(z.string(), z.unknown());

/** A strategy's state snapshot (TurnResult.snapshot): any JSON object; the strategy checks its shape when it re-runs. */
export const snapshotSchema = z.record(z.string(), z.unknown());
/** Larger snapshots are not kept (the turn then cannot be re-run from a step, only with an edited final query). */
export const SNAPSHOT_MAX_CHARS = 4_000_000;
