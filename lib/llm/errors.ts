// Turns whatever the AI SDK or a provider throws into one AppError with an llm_* code, with secrets scrubbed.
import { AISDKError, APICallError, LoadAPIKeyError, RetryError } from "ai";
import { AppError } from "@/lib/errors";

export interface MapErrorContext {
  /** values that must never appear in messages (API keys) */
  secrets?: readonly string[];
  /** which signal fired decides timeout vs. cancel when the error itself is ambiguous */
  timedOut?: boolean;
  aborted?: boolean;
}

// Key shapes used by OpenAI, Google and most gateways; caught even when the exact key is unknown.
const KEY_PATTERNS = [/\bsk-[A-Za-z0-9_*-]{6,}/g, /\bAIza[0-9A-Za-z_-]{10,}/g, /\bBearer\s+[A-Za-z0-9._~+/=-]{6,}/gi];

// The provider key variables of this process: always scrubbed, so a caller that forgets to pass `secrets`
// (an agent mapping its own SDK errors) still cannot leak the configured key.
const KEY_ENV_VARS = ["LLM_API_KEY", "OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY", "ANTHROPIC_API_KEY"];

function envKeys(): string[] {
  if (typeof process === "undefined" || !process.env) return [];
  return KEY_ENV_VARS.map((k) => process.env[k]?.trim() ?? "").filter((v) => v.length >= 8);
}

/** Removes API keys (the given ones, the process's configured ones, and anything shaped like one) from a message. */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of [...secrets, ...envKeys()]) if (s && s.length >= 4) out = out.split(s).join("[redacted]");
  for (const p of KEY_PATTERNS) out = out.replace(p, "[redacted]");
  return out;
}

/** Seconds to wait from `retry-after` (seconds or HTTP date) or `retry-after-ms`; undefined when absent. */
export function retryAfterSeconds(headers: Record<string, string> | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") !== undefined && Number.isFinite(ms) && ms >= 0) return ms / 1000;
  const raw = get("retry-after");
  if (raw === undefined) return undefined;
  const secs = Number(raw);
  if (Number.isFinite(secs) && secs >= 0) return secs;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, (date - now) / 1000);
}

function providerMessage(e: APICallError): string {
  // Providers put the useful sentence in the body ({error:{message}}); fall back to the SDK's message.
  try {
    const body = e.responseBody ? (JSON.parse(e.responseBody) as { error?: { message?: unknown } | string; message?: unknown }) : undefined;
    const m = typeof body?.error === "string" ? body.error : (body?.error?.message ?? body?.message);
    if (typeof m === "string" && m) return m;
  } catch {
    /* body was not JSON */
  }
  return e.message;
}

function clip(s: string, n = 300): string {
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

function isNamed(e: unknown, name: string): boolean {
  return typeof e === "object" && e !== null && (e as { name?: unknown }).name === name;
}

/** Maps a provider/SDK failure to AppError: llm_auth, llm_rate_limit, llm_server, llm_timeout, aborted, llm_not_configured, llm_bad_output. */
export function mapProviderError(e: unknown, ctx: MapErrorContext = {}): AppError {
  const secrets = ctx.secrets ?? [];
  const clean = (s: string) => clip(redactSecrets(s, secrets));
  if (e instanceof AppError) {
    return e.message === clean(e.message) ? e : new AppError(e.code, clean(e.message), { where: e.where, details: e.details });
  }
  if (RetryError.isInstance(e)) return mapProviderError(e.lastError, ctx);
  if (ctx.timedOut || isNamed(e, "TimeoutError")) {
    return new AppError("llm_timeout", "The LLM did not answer in time.", { cause: e });
  }
  if (ctx.aborted || isNamed(e, "AbortError")) return new AppError("aborted", "The LLM call was cancelled.", { cause: e });
  if (LoadAPIKeyError.isInstance(e)) {
    return new AppError("llm_not_configured", `The LLM API key is missing: ${clean(e.message)}`, { cause: e });
  }
  if (APICallError.isInstance(e)) {
    const status = e.statusCode;
    const msg = clean(providerMessage(e)).replace(/[\s.]+$/, "");
    const details: Record<string, unknown> = { status, retryable: e.isRetryable };
    if (status === 401 || status === 403) {
      return new AppError("llm_auth", `The LLM provider rejected the credentials (HTTP ${status}): ${msg}. Check LLM_API_KEY or the provider's key variable.`, { cause: e, details });
    }
    if (status === 429) {
      const ra = retryAfterSeconds(e.responseHeaders);
      if (ra !== undefined) details.retryAfterSeconds = ra;
      const when = ra !== undefined ? ` Retry after ${Math.ceil(ra)} s.` : "";
      return new AppError("llm_rate_limit", `The LLM provider is rate limiting requests (HTTP 429): ${msg}.${when}`, { cause: e, details });
    }
    if (status === 408) return new AppError("llm_timeout", `The LLM provider timed out (HTTP 408): ${msg}.`, { cause: e, details });
    if (status === 404) {
      return new AppError("llm_not_configured", `The LLM provider does not know this model or endpoint (HTTP 404): ${msg}. Check LLM_MODEL and LLM_BASE_URL.`, { cause: e, details });
    }
    if (status === undefined) {
      return new AppError("llm_server", `Could not reach the LLM provider: ${clean(e.cause instanceof Error ? e.cause.message : e.message)}`, { cause: e, details });
    }
    return new AppError("llm_server", `The LLM provider failed (HTTP ${status}): ${msg}.`, { cause: e, details });
  }
  if (
    isNamed(e, "AI_NoContentGeneratedError") ||
    isNamed(e, "AI_NoOutputGeneratedError") ||
    isNamed(e, "AI_EmptyResponseBodyError") ||
    isNamed(e, "AI_InvalidResponseDataError") ||
    isNamed(e, "AI_JSONParseError") ||
    isNamed(e, "AI_TypeValidationError")
  ) {
    return new AppError("llm_bad_output", `The LLM returned no usable output: ${clean((e as Error).message)}`, { cause: e });
  }
  if (AISDKError.isInstance(e)) return new AppError("llm_server", `The LLM call failed: ${clean(e.message)}`, { cause: e });
  // Network errors from fetch (ECONNREFUSED, DNS) surface as TypeError("fetch failed").
  if (e instanceof TypeError && /fetch failed/i.test(e.message)) {
    const cause = e.cause instanceof Error ? `: ${clean(e.cause.message)}` : "";
    return new AppError("llm_server", `Could not reach the LLM provider${cause}`, { cause: e });
  }
  return new AppError("internal", clean(e instanceof Error ? e.message : String(e)), { cause: e });
}
