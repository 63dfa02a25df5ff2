// The Chat agent's KG tool input: standalone question, language, context dependence and (batched) a QIR draft.
import { jsonSchema, zodSchema, type FlexibleSchema } from "ai";
import { z } from "zod";
import type { PipelineConfig } from "@/lib/pipeline/types";
import type { ChattyState } from "../state";
import { hasDialogueContext } from "../dialogue-context";

export const askKgInputSchema = z.object({
  question: z
    .string()
    .describe(
      'The standalone question in English: references to the conversation such as "its", "he", "that film" replaced by the entity they mean; translated to English when the user wrote in another language.',
    ),
  language: z.string().describe('ISO 639-1 code of the language the user wrote the message in, e.g. "en", "de", "fr".'),
  context_dependent: z.boolean().describe("true when the earlier conversation was needed to make the question standalone."),
});

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
  })
  .describe("The Question Intermediate Representation of `question` (see the instructions).");

/** The tool's arguments; `qir` is kept as sent (the QIR agent validates it and says what is wrong). */
export type AskKgArgs = z.infer<typeof askKgInputSchema> & { qir?: Record<string, unknown> };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Batched QIR only rides along batched context: the draft is of the Chat agent's own standalone rewrite. */
export function qirInToolCall(config: Pick<PipelineConfig, "batchContext" | "batchQir">): boolean {
  return config.batchContext && config.batchQir;
}

/**
 * The tool's input schema. With the QIR: the model sees the described `qir` object, but a malformed draft never fails
 * the tool call (that would cost a Chat retry); it is passed on raw and the QIR agent falls back to its own call.
 */
export function askKgToolInput(withQir: boolean): FlexibleSchema<AskKgArgs> {
  if (!withQir) return askKgInputSchema;
  const described = askKgInputSchema.extend({ qir: qirDraftSchema.optional() });
  return jsonSchema<AskKgArgs>(() => zodSchema(described).jsonSchema, {
    validate: (value) => {
      const base = askKgInputSchema.safeParse(value);
      if (!base.success) return { success: false, error: base.error };
      const qir = isRecord(value) ? value.qir : undefined;
      return { success: true, value: isRecord(qir) ? { ...base.data, qir } : base.data };
    },
  });
}

/** Cleans the tool's arguments: trimmed question, lower-case language subtag, no dependency without a history. */
export function normalizeAskKgArgs(args: AskKgArgs, state: Pick<ChattyState, "dialogue" | "config">): AskKgArgs {
  const lang = args.language.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return {
    question: args.question.replace(/\s+/g, " ").trim(),
    language: /^[a-z]{2,3}$/.test(lang) ? lang : "und",
    // Turn 1 (or single-turn mode) has nothing to depend on, whatever the model says.
    context_dependent: hasDialogueContext(state.dialogue, state.config.mode) ? args.context_dependent : false,
    ...(args.qir ? { qir: args.qir } : {}),
  };
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
