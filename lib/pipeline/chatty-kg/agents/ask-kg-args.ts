// Chatty-KG's part of the Chat agent's KG tool input: the batched QIR draft and what the tool call tells the pipeline.
import type { FlexibleSchema } from "ai";
import { z } from "zod";
import type { PipelineConfig } from "@/lib/pipeline/types";
import { askKgToolInputWith, type AskKgArgs } from "@/lib/pipeline/common/ask-kg-args";
import type { ChattyState } from "../state";

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
  // The optional constraint fields (values, classes, filters, …) are described in the prompt's QIR section, not here:
  // the schema is sent with every chat call, and their JSON schema would cost ~700 tokens more; the object stays open
  // to them and the Triples validator checks them (qir-constraints.ts).
  .loose()
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
