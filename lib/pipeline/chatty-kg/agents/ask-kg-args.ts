// Chatty-KG's part of the Chat agent's KG tool input: the batched QIR draft and what the tool call tells the pipeline.
import type { FlexibleSchema } from "ai";
import { z } from "zod";
import type { PipelineConfig } from "@/lib/pipeline/types";
import { askKgToolInputWith, type AskKgArgs } from "@/lib/pipeline/common/ask-kg-args";
import type { ChattyState } from "../state";

const scalar = z.union([z.string(), z.number()]);

/** The QIR's optional constraint fields as the Chat agent's tool shows them (qir-constraints.ts checks them). */
const constraintDraftFields = {
  values: z
    .array(z.object({ text: z.string(), type: z.enum(["string", "number", "date"]) }))
    .optional()
    .describe("Triple ends that are literal values, not named things: text stored as a value (a city in an address, a code), numbers, dates (YYYY-MM-DD)."),
  classes: z.array(z.object({ var: z.string(), class: z.string() })).optional().describe('The kind of an unknown the question names ("hotels" → {"var": "?h", "class": "hotel"}).'),
  filters: z
    .array(z.object({ var: z.string(), op: z.enum(["=", "!=", "<", "<=", ">", ">=", "between", "in", "contains"]), value: z.union([scalar, z.array(scalar)]).optional(), var2: z.string().optional() }))
    .optional()
    .describe('Comparisons: "between" takes [low, high], "in" a list ("A or B"), "contains" part of a text; "var2" compares with another variable.'),
  not: z.array(z.array(z.string())).optional().describe('Triples that must NOT hold ("without", "no", "never").'),
  exclude: z
    .object({ var: z.string(), entities: z.array(z.string()).optional(), earlier_answers: z.boolean().optional() })
    .optional()
    .describe('"what else" → earlier_answers true; "other than X" → entities ["X"].'),
  aggregates: z
    .array(z.object({ fn: z.enum(["count", "sum", "avg", "min", "max"]), var: z.string(), as: z.string() }))
    .optional()
    .describe('An aggregate of a variable, named by "as"; with group_by for "for each/per".'),
  group_by: z.array(z.string()).optional(),
  order_by: z
    .array(z.object({ var: z.string(), dir: z.enum(["asc", "desc"]), count: z.boolean().optional() }))
    .optional()
    .describe('Superlatives and rankings ("highest" desc, "first/lowest" asc) with limit; count: true ranks by how many values var has.'),
  limit: z.number().int().optional(),
  offset: z.number().int().optional(),
  columns: z.array(z.string()).optional().describe('More variables to show beside the target ("name and phone").'),
};

/** The QIR agent's output format (paper Def. 3.2), described for the model; the Triples validator checks it later. */
export const qirDraftSchema = z
  .object({
    entities: z.array(z.string()).describe("The named things the question mentions, copied as written in `question`."),
    unknowns: z
      .array(z.string())
      .describe('What the question asks for and any intermediate thing needed to reach it, as variables starting with "?" ("?film").'),
    relations: z
      .array(z.string())
      .describe('The phrases linking them, in the question\'s words: its verb ("directed by") or the noun naming the link ("author"); never "has"/"is" alone.'),
    triples: z
      .array(z.array(z.string()).describe("[subject, relation, object]"))
      .describe("One [subject, relation, object] per link; subjects and objects are entities or unknowns."),
    target: z.string().nullable().describe("The unknown the question finally asks for; null for a yes/no question."),
    question_type: z
      .enum(["factoid", "count", "boolean"])
      .describe('"boolean" for yes/no, "count" for how many THINGS there are, otherwise "factoid".'),
    // Constraints: only when the question needs them (described tersely: the schema is sent with every chat call).
    ...constraintDraftFields,
  })
  .describe("The Question Intermediate Representation of `question` (see the instructions).");

/** Batched QIR only rides along batched context: the draft is of the Chat agent's own standalone rewrite. */
export function qirInToolCall(config: Pick<PipelineConfig, "batchContext" | "batchQir">): boolean {
  return config.batchContext && config.batchQir;
}

/** The tool's input schema: with the QIR draft when batched (see askKgToolInputWith). */
export function askKgToolInput(withQir: boolean): FlexibleSchema<AskKgArgs> {
  return askKgToolInputWith(withQir ? qirDraftSchema : undefined);
}

/** What the Chat agent's tool call tells the pipeline (only with batched context; otherwise the separate agents decide). */
export function stateFromAskKgArgs(args: AskKgArgs, batched: boolean, withQir = false): Partial<ChattyState> {
  if (!batched) return { route: "kg" };
  return {
    route: "kg",
    language: args.language,
    englishQuestion: args.question,
    contextDependent: args.context_dependent,
    standaloneQuestion: args.question,
    ...(withQir && args.qir ? { qirDraft: args.qir } : {}),
  };
}
