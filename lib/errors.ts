// One error class for the whole app: a stable `code` callers branch on, a human message, and where it happened.

export const ERROR_CODES = {
  // input from users or callers
  bad_request: 400,
  not_found: 404,
  too_large: 413,
  /** a user-supplied URL points at a private, loopback or link-local network (SSRF policy) */
  url_forbidden: 403,
  /** shared deployments: not signed in */
  unauthorized: 401,
  /** too many runs from one session or for the whole server (the app's own limits; see lib/server/rate-limit.ts) */
  rate_limited: 429,
  // SPARQL and knowledge graphs
  sparql_syntax: 400,
  sparql_forbidden: 403,
  kg_load: 422,
  kg_timeout: 504,
  kg_unreachable: 502,
  kg_http: 502,
  kg_bad_response: 502,
  kg_unavailable: 503,
  // SQL over the database induced from a KG (RAGONITE)
  sql_syntax: 400,
  sql_forbidden: 403,
  sql_timeout: 504,
  // LLM providers
  llm_not_configured: 503,
  llm_auth: 502,
  llm_rate_limit: 429,
  llm_server: 502,
  llm_timeout: 504,
  llm_bad_output: 502,
  // embeddings
  embedding_unavailable: 503,
  // pipeline
  pipeline_failed: 422,
  aborted: 499,
  internal: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ErrorLocation {
  /** 1-based line in the input (file, query) the error refers to */
  line?: number;
  /** 1-based column */
  column?: number;
  /** file name, URL or pipeline stage */
  source?: string;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly where?: ErrorLocation;
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    options: { cause?: unknown; where?: ErrorLocation; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = "AppError";
    this.code = code;
    this.where = options.where;
    this.details = options.details;
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }

  /** Plain data for logs, traces, HTTP bodies: never includes the cause's stack or secrets. */
  toJSON(): { code: ErrorCode; message: string; where?: ErrorLocation; details?: Record<string, unknown> } {
    return { code: this.code, message: this.message, where: this.where, details: this.details };
  }
}

export function isAppError(e: unknown, code?: ErrorCode): e is AppError {
  return e instanceof AppError && (code === undefined || e.code === code);
}

/** Wraps anything thrown into an AppError, keeping AppErrors as they are. */
export function toAppError(e: unknown, fallback: ErrorCode = "internal"): AppError {
  if (e instanceof AppError) return e;
  if (e instanceof Error && e.name === "AbortError") return new AppError("aborted", "The operation was cancelled.", { cause: e });
  const message = e instanceof Error ? e.message : String(e);
  return new AppError(fallback, message, { cause: e });
}
