// The HTTP/server-action contract between the browser and the server: zod request schemas and response types.
// Shared by app/api/**, app/(chat)/actions.ts and client components, so it imports nothing server-only.
import { z } from "zod";
import type { UIMessage } from "ai";
import { pipelineConfigSchema, STAGES, type Answer, type Citation, type DerivationEvent, type Stage, type TurnResult, type TurnStats } from "@/lib/pipeline/types";
import type { QueryResult, Term } from "@/lib/kg/types";
import { correctionSchema, type AttemptChange } from "@/lib/pipeline/corrections";

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces
// ---------------------------------------------------------------------------------------------------------------

/** Every non-2xx JSON body (and every `{ ok: false }` server-action result) carries this. */
export interface ApiError {
  /** a stable code from lib/errors.ts ERROR_CODES (e.g. "not_found", "sparql_syntax", "llm_not_configured") */
  code: string;
  message: string;
  /** 1-based position in the query or file the error refers to, and which file/URL/stage */
  where?: { line?: number; column?: number; source?: string };
  details?: Record<string, unknown>;
}
export interface ApiErrorBody {
  error: ApiError;
}

/** Turn statuses as stored (same values as lib/db/json.ts TURN_STATUSES; checked by a test). */
export const TURN_STATUSES = ["pending", "running", "done", "failed", "interrupted"] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

const id = z.string().trim().min(1).max(200);

/** Providers a request may pick; keys always come from the server's env, never from the request. */
export const CLIENT_LLM_PROVIDERS = ["openai", "google", "openai-compatible"] as const;

export const llmOverrideSchema = z.object({
  provider: z.enum(CLIENT_LLM_PROVIDERS),
  model: z.string().trim().min(1).max(200),
  /** only for "openai-compatible" (e.g. http://127.0.0.1:11434/v1); no API key is sent to a URL the request chose */
  baseURL: z
    .url({ protocol: /^https?$/ })
    .max(2000)
    .optional(),
});
export type LlmOverride = z.infer<typeof llmOverrideSchema>;

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

/** Pipeline parameters a request may set: the row limit is not one of them (the app's cap stays; a sent value is ignored). */
const requestConfigSchema = pipelineConfigSchema.omit({ rowLimit: true }).partial();

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

// ---------------------------------------------------------------------------------------------------------------
// POST /api/sparql
// ---------------------------------------------------------------------------------------------------------------

export const SPARQL_ROW_CAP = 10_000;

export const sparqlRequestSchema = z.object({
  kgId: id,
  query: z.string().min(1, "Type a query.").max(100_000),
});
export type SparqlRequest = z.input<typeof sparqlRequestSchema>;

/**
 * POST /api/sql: one read-only SELECT over the database RAGONITE induced from the KG (built on first use). The 200
 * body is a SparqlResponse (cells as RDF terms: IRIs the KG holds come back as IRIs). Errors: 400 `sql_syntax`,
 * 403 `sql_forbidden` (anything but one SELECT), 504 `sql_timeout`.
 */
export const sqlRequestSchema = sparqlRequestSchema;

/**
 * 200 body. SELECT bindings / CONSTRUCT triples are cut at `rowCap` with `truncated: true`.
 * Errors: 400 `sparql_syntax` with `error.where.{line,column}`, 403 `sparql_forbidden` (updates, SERVICE),
 * 504 `kg_timeout`, 502 `kg_*`.
 */
export interface SparqlResponse {
  result: QueryResult;
  ms: number;
  truncated: boolean;
  rowCap: number;
  /** labels of IRIs in the (capped) result, where the KG has one */
  labels: Record<string, string>;
  /** present when well-known prefixes (rdfs:, xsd:, …) the query used undeclared were declared: the query as it ran */
  declared?: { query: string; prefixes: string[] };
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/entity?kgId=&iri=
// ---------------------------------------------------------------------------------------------------------------

export const ENTITY_EDGE_CAP = 50;

export const entityQuerySchema = z.object({
  kgId: id,
  iri: z.string().min(1).max(4000),
});

export interface LabeledIri {
  iri: string;
  label: string;
}

export interface EntityEdge {
  predicate: LabeledIri;
  /** for outgoing edges the object, for incoming ones the subject */
  object: Term & { label?: string };
}

export interface EntityResponse {
  iri: string;
  /** the KG's label, or the IRI's local name when it has none */
  label: string;
  types: LabeledIri[];
  description?: string;
  outgoing: EntityEdge[];
  incoming: EntityEdge[];
  /** true when outgoing or incoming hit ENTITY_EDGE_CAP */
  capped: boolean;
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/entity/search?kgId=&q=: vertices by label (the KG profile's label search), to link a mention by hand
// ---------------------------------------------------------------------------------------------------------------

export const ENTITY_SEARCH_CAP = 20;

export const entitySearchQuerySchema = z.object({
  kgId: id,
  q: z.string().trim().min(1, "Type a name to search for.").max(300),
});

export interface EntitySearchResponse {
  /** best first; `types`: labelled classes, `description`: a short text, to tell same-named vertices apart */
  hits: { iri: string; label: string; score: number; types: string[]; description?: string }[];
}

// ---------------------------------------------------------------------------------------------------------------
// GET /api/turns/[id]/provenance?attempt=&index=: the KG triples (or cited rows / passages) behind one answer item
// ---------------------------------------------------------------------------------------------------------------

export const provenanceQuerySchema = z.object({
  /** the attempt whose answer is meant (default: the latest) */
  attempt: z.coerce.number().int().min(1).max(10_000).optional(),
  /** items: the item's position; table: the row's; absent for a yes/no answer */
  index: z.coerce.number().int().min(0).max(10_000_000).optional(),
});

export interface ProvenanceTriple {
  subject: Term & { label?: string };
  predicate: Term & { label?: string };
  object: Term & { label?: string };
}

export interface ProvenanceResponse {
  /** the KG triples the executed query matched for this item (deduplicated, at most PROVENANCE_CAP) */
  triples: ProvenanceTriple[];
  /** the read-only CONSTRUCT queries that found them (the query's pattern restricted to this item) */
  queries: string[];
  /** evidence the item cites, when its strategy cites (RAGONITE: SQL rows, passages) */
  citations: Citation[];
  truncated: boolean;
  /** why nothing (or not everything) is shown */
  note?: string;
}

export const PROVENANCE_CAP = 200;

// ---------------------------------------------------------------------------------------------------------------
// Knowledge graphs: GET /api/kg, POST /api/kg/upload (multipart), POST /api/kg/endpoint
// ---------------------------------------------------------------------------------------------------------------

export const KG_KINDS = ["sample", "upload", "endpoint"] as const;
export type KgKind = (typeof KG_KINDS)[number];

export interface KgListItem {
  id: string;
  name: string;
  kind: KgKind;
  triples?: number;
  /** "ready": open; "not-loaded": opens at first use (sample, uploads after a restart); "error": see `error` */
  status: "ready" | "not-loaded" | "error";
  error?: string;
  /** endpoints only: the URL without credentials or query string */
  url?: string;
}

export interface KgListResponse {
  kgs: KgListItem[];
  /** the KG a new conversation uses unless the user picks another */
  defaultKgId: string;
}

/** File extensions POST /api/kg/upload accepts (form field `files`, one or more). */
export const UPLOAD_EXTENSIONS = [".ttl", ".turtle", ".nt", ".ntriples", ".nq", ".nquads", ".trig", ".rdf", ".owl", ".xml"] as const;
export const DEFAULT_UPLOAD_MAX_MB = 50;

/** Form field `name` of the upload (optional; defaults to the first file name). */
export const uploadFieldsSchema = z.object({
  name: z.string().trim().min(1).max(200).optional(),
});

/** 201 body of POST /api/kg/upload and POST /api/kg/endpoint. Upload errors: 413 too_large, 422 kg_load naming file + line. */
export interface KgCreatedResponse {
  kg: KgListItem;
}

export const endpointRequestSchema = z.object({
  url: z.string().trim().min(1).max(2000),
  name: z.string().trim().min(1).max(200).optional(),
  /** a preset name (e.g. "wikidata", "dbpedia") or a partial KgProfile object */
  profile: z.union([z.string().min(1).max(100), z.record(z.string(), z.unknown())]).optional(),
});
export type EndpointRequest = z.input<typeof endpointRequestSchema>;

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

export { STAGES };
