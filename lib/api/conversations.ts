// Conversations across the boundary: the export, the server actions (errors as data) and the records they return.
import { z } from "zod";
import type { Answer, DerivationEvent, TurnResult, TurnStats } from "@/lib/pipeline/types";
import type { AttemptChange } from "@/lib/pipeline/corrections";
import { idSchema as id, type ApiError, type TurnStatus } from "./shared";
import type { TurnErrorData } from "./turn-stream";

// ---------------------------------------------------------------------------------------------------------------
// GET /api/conversations/[id]/export?format=md|json
// ---------------------------------------------------------------------------------------------------------------

export const exportQuerySchema = z.object({ format: z.enum(["md", "json"]).default("md") });

/** format=json body (format=md is text/markdown); both are sent as an attachment. */
export interface ConversationExport {
  id: string;
  title: string;
  kgId: string;
  createdAt: string;
  /** each turn: its latest attempt (1 unless the user re-ran the turn after a correction), with the earlier ones */
  turns: (ExportedAttempt & { index: number; question: string; attempts: ExportedAttempt[] })[];
}

/** One attempt of an exported turn: its outcome and what started it (null: the first attempt). */
export interface ExportedAttempt {
  attempt: number;
  change: AttemptChange | null;
  status: TurnStatus;
  answer: Answer | null;
  /** where the answer came from; "llm" = the model's own knowledge, not from the KG (then `note` says so) */
  source: TurnResult["source"] | null;
  note?: string;
  naturalAnswer: string | null;
  standaloneQuestion: string | null;
  sparql: string[];
  error: TurnErrorData | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Server actions (app/(chat)/actions.ts): each returns ActionResult, never throws to the client
// ---------------------------------------------------------------------------------------------------------------

/** Server actions return errors as data (Next hides thrown messages in production). */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ApiError };

export const renameConversationSchema = z.object({ conversationId: id, title: z.string().trim().min(1).max(200) });
export const deleteConversationSchema = z.object({ conversationId: id });
export const setFeedbackSchema = z.object({ turnId: id, feedback: z.union([z.literal(1), z.literal(-1), z.null()]) });
export const listConversationsSchema = z.object({ search: z.string().max(200).optional() });
export const getConversationSchema = z.object({ conversationId: id });
export const shareLinkSchema = z.object({ conversationId: id });

/** A conversation's read-only share link as its owner sees it (server actions getShareLink / createShareLink / revokeShareLink). */
export interface ShareLinkDto {
  /** null: the server does not offer links; the sentence says why */
  off: string | null;
  /** the page's path (/share/<signed id>); null when the conversation has no working link */
  path: string | null;
  createdAt: string | null;
}

/** Dates are ISO strings so the same shapes work in JSON and across the server-action boundary. */
export interface ConversationSummaryDto {
  id: string;
  title: string;
  kgId: string;
  createdAt: string;
  updatedAt: string;
  turnCount: number;
}

/** One attempt of a turn (the first run, or a re-run after a correction). */
export interface AttemptDto {
  attempt: number;
  /** the correction that started it; null for the first attempt */
  change: AttemptChange | null;
  status: TurnStatus;
  answer: Answer | null;
  naturalAnswer: string | null;
  source: TurnResult["source"] | null;
  standaloneQuestion: string | null;
  error: TurnErrorData | null;
  /** the stored derivation events: replayed into the derivation panel when a saved conversation opens */
  trace: DerivationEvent[];
  stats: TurnStats | null;
  /** what the turn ran with (pipeline parameters, KG, model) */
  config: Record<string, unknown>;
  sparql: string[];
  feedback: 1 | -1 | null;
  createdAt: string;
  finishedAt: string | null;
}

/** A turn: its latest attempt's outcome, with the earlier attempts (oldest first). */
export interface TurnDto extends AttemptDto {
  id: string;
  conversationId: string;
  index: number;
  question: string;
  attempts: AttemptDto[];
}

/** GET /api/turns/[id]/attempts: every attempt, oldest first (the last is the turn's current one). */
export interface AttemptsResponse {
  turnId: string;
  attempts: AttemptDto[];
}

export interface ConversationDto extends Omit<ConversationSummaryDto, "turnCount"> {
  turns: TurnDto[];
}
