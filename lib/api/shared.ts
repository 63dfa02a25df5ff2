// What every part of the browser–server contract uses: the error body, turn statuses, ids, the LLM a request may pick.
import { z } from "zod";

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

export const idSchema = z.string().trim().min(1).max(200);

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
