// The Chat agent's KG tool input, shared by every strategy: standalone English question, language, context dependence,
// and optionally a strategy's own draft object riding along (Chatty-KG's QIR).
import { jsonSchema, zodSchema, type FlexibleSchema } from "ai";
import { z } from "zod";
import type { DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";
import { hasDialogueContext } from "./dialogue-context";

export const askKgInputSchema = z.object({
  question: z
    .string()
    .describe(
      'The standalone question in English: references to the conversation such as "its", "he", "that film" replaced by the entity they mean; translated to English when the user wrote in another language.',
    ),
  language: z.string().describe('ISO 639-1 code of the language the user wrote the message in, e.g. "en", "de", "fr".'),
  context_dependent: z.boolean().describe("true when the earlier conversation was needed to make the question standalone."),
});

/** The tool's arguments; `qir` (a strategy's draft) is kept as sent: the strategy validates it and says what is wrong. */
export type AskKgArgs = z.infer<typeof askKgInputSchema> & { qir?: Record<string, unknown> };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The tool's input schema. With a draft schema the model sees the described `qir` object, but a malformed draft never
 * fails the tool call (that would cost a Chat retry); it is passed on raw for the strategy to check.
 */
export function askKgToolInputWith(draft: z.ZodType | undefined): FlexibleSchema<AskKgArgs> {
  if (!draft) return PLAIN_TOOL_INPUT;
  // one schema object per draft schema: it converts to JSON Schema once (the AI SDK caches that per object), where a
  // new one per call converted on every Chat call (~1.5 ms of CPU per turn under load)
  let schema = withDraft.get(draft);
  if (!schema) withDraft.set(draft, (schema = buildToolInput(draft)));
  return schema;
}

const PLAIN_TOOL_INPUT: FlexibleSchema<AskKgArgs> = zodSchema(askKgInputSchema);
const withDraft = new WeakMap<z.ZodType, FlexibleSchema<AskKgArgs>>();

function buildToolInput(draft: z.ZodType): FlexibleSchema<AskKgArgs> {
  const described = askKgInputSchema.extend({ qir: draft.optional() });
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
export function normalizeAskKgArgs(args: AskKgArgs, state: { dialogue: DialogueTurn[]; config: Pick<PipelineConfig, "mode"> }): AskKgArgs {
  const lang = args.language.trim().toLowerCase().split(/[-_]/)[0] ?? "";
  return {
    question: args.question.replace(/\s+/g, " ").trim(),
    language: /^[a-z]{2,3}$/.test(lang) ? lang : "und",
    // Turn 1 (or single-turn mode) has nothing to depend on, whatever the model says.
    context_dependent: hasDialogueContext(state.dialogue, state.config.mode) ? args.context_dependent : false,
    ...(args.qir ? { qir: args.qir } : {}),
  };
}
