// The turn requests (POST /api/turns, retry, re-run after a correction) and the typed parts of the stream they answer with.
import { z } from "zod";
import type { UIMessage } from "ai";
import { pipelineConfigSchema, type DerivationEvent, type Stage, type TurnResult } from "@/lib/pipeline/types";
import { correctionSchema, type AttemptChange } from "@/lib/pipeline/corrections";
import { idSchema as id, llmOverrideSchema, type TurnStatus } from "./shared";

// ---------------------------------------------------------------------------------------------------------------
// POST /api/turns and POST /api/turns/[id]/retry: a UI message stream (SSE) of typed data parts
// ---------------------------------------------------------------------------------------------------------------

/** Longest question accepted (characters, after trimming); longer text is refused before anything is saved. */
export const QUESTION_MAX_CHARS = 4_000;

/**
 * A question: control characters removed, trimmed; empty, whitespace-only or invisible-only text (controls, zero-width characters) is not a
 * question and is refused with a 400 before anything is saved. Emoji, right-to-left and mixed scripts are accepted.
 */
export const questionSchema = z
  .string()
  // C0 controls other than tab/newline/CR (and DEL) are removed: SQLite cuts text at NUL, and none of them is visible
  // eslint-disable-next-line no-control-regex
  .overwrite((q) => q.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, ""))
  .trim()
  .min(1, "Type a question.")
  .max(QUESTION_MAX_CHARS, `The question is too long: at most ${QUESTION_MAX_CHARS.toLocaleString("en")} characters.`)
  // \p{Cc} controls and \p{Cf} format characters (zero-width space, BOM, direction marks) show nothing by themselves
  .refine((q) => /[^\p{White_Space}\p{Cc}\p{Cf}]/u.test(q), "Type a question: this one has only invisible characters.");

/**
 * Pipeline parameters a request may set: the row limit and the turn's KG budget are not among them (the server's caps
 * stay; a sent value is ignored).
 */
const requestConfigSchema = pipelineConfigSchema.omit({ rowLimit: true, kgQueryBudget: true, kgTimeBudgetMs: true }).partial();

/**
 * Body of POST /api/turns. Unknown keys are ignored, so useChat's default body (`id`, `messages`, `trigger`) may be
 * sent alongside; prefer `prepareSendMessagesRequest` to send exactly this.
 */
export const turnRequestSchema = z.object({
  /** absent: a new conversation is created, titled with the question (first 80 characters) */
  conversationId: id.optional(),
  question: questionSchema,
  kgId: id,
  /** pipeline parameters (θ, L, vlimit, query_num, mode, …); missing ones take their defaults */
  config: requestConfigSchema.optional(),
  llm: llmOverrideSchema.optional(),
});
export type TurnRequest = z.input<typeof turnRequestSchema>;

/** Body of POST /api/turns/[id]/retry (all optional: by default the turn re-runs with its stored config). */
export const retryRequestSchema = z.object({
  config: requestConfigSchema.optional(),
  llm: llmOverrideSchema.optional(),
});
export type RetryRequest = z.input<typeof retryRequestSchema>;

/**
 * Body of POST /api/turns/[id]/rerun: a correction of one step of attempt `attempt` (default: the latest). The turn
 * re-runs from that step as a new attempt; the same stream as POST /api/turns.
 */
export const rerunRequestSchema = z.object({
  attempt: z.number().int().min(1).max(10_000).optional(),
  correction: correctionSchema,
  /** only with correction "again": the parameters to run with (missing ones: as the attempt was run) */
  config: requestConfigSchema.optional(),
  llm: llmOverrideSchema.optional(),
});
export type RerunRequest = z.input<typeof rerunRequestSchema>;

/** `data-turn`: sent first, once the question is saved (the turn exists in the database with status "running"). */
export interface TurnStartData {
  conversationId: string;
  turnId: string;
  /** 0-based position in the conversation */
  index: number;
  question: string;
  /** true when this request created the conversation (the client can update the URL and the history list) */
  newConversation: boolean;
  /** conversation title (the first question, trimmed) */
  title: string;
  /** 1-based attempt this stream runs (above 1: a re-run after `change`) */
  attempt?: number;
  change?: AttemptChange | null;
}

/** `data-result`: sent last; `status` is "done", "failed" or "interrupted" (stopped by the user). */
export interface TurnResultData {
  turnId: string;
  status: TurnStatus;
  result: TurnResult;
}

/** `data-error`: what failed (also reflected in `data-result.result.error` once a turn exists). */
export interface TurnErrorData {
  code: string;
  message: string;
  stage?: Stage;
}

/**
 * The message type of the turn stream: `useChat<ChatUIMessage>` / `readUIMessageStream<ChatUIMessage>`.
 * Parts: `data-turn` (once), `data-event` (one per DerivationEvent, in order), `data-error` (0 or 1), `data-result` (once).
 * Errors found before the stream starts (bad body, unknown KG, foreign conversation) are a JSON `ApiErrorBody`
 * with the HTTP status instead.
 */
export type ChatUIMessage = UIMessage<
  never,
  {
    turn: TurnStartData;
    event: DerivationEvent;
    result: TurnResultData;
    error: TurnErrorData;
  }
>;
