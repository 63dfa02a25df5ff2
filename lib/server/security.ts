// Keeps server secrets (API keys, session secret, endpoint credentials) out of responses and logs: redaction helpers.
import "server-only";
import { AppError, toAppError } from "@/lib/errors";
import { redactSecrets } from "@/lib/llm/errors";

type Env = Record<string, string | undefined>;

// env vars whose values are secrets by name; short values are skipped so "1" or "true" never blanks a message
const SECRET_NAME = /(API_KEY|_KEY|_TOKEN|_SECRET|PASSWORD|_PASS)$/i;
const MIN_SECRET_LENGTH = 8;
// user:password@ in any URL; Basic credentials in a header echoed back
const URL_USERINFO = /\b(https?:\/\/)[^\s/?#@]+@/gi;
const BASIC_AUTH = /\bBasic\s+[A-Za-z0-9+/=]{6,}/gi;

// Enumerating process.env is slow (every key goes through a native interceptor) and redaction runs per trace event
// under load, so the secret-looking names are listed at most once every few seconds; their values are read fresh.
const NAMES_TTL_MS = 5_000;
let namesCache: { env: Env; at: number; names: string[] } | undefined;

function secretNames(env: Env): string[] {
  const now = Date.now();
  if (!namesCache || namesCache.env !== env || now - namesCache.at > NAMES_TTL_MS) {
    namesCache = { env, at: now, names: Object.keys(env).filter((n) => SECRET_NAME.test(n)) };
  }
  return namesCache.names;
}

/** The values of secret-named env vars (LLM keys, SESSION_SECRET, …). */
export function envSecrets(env: Env = process.env): string[] {
  const out: string[] = [];
  for (const name of secretNames(env)) {
    const v = env[name]?.trim();
    if (v && v.length >= MIN_SECRET_LENGTH) out.push(v);
  }
  return out;
}

/** Text with known secrets, key-shaped tokens, URL credentials and Basic auth values replaced by "[redacted]". */
export function redact(text: string, env: Env = process.env): string {
  return redactSecrets(text, envSecrets(env)).replace(URL_USERINFO, "$1[redacted]@").replace(BASIC_AUTH, "Basic [redacted]");
}

/** Redacts every string inside a JSON-able value (error details, trace events and results may quote provider bodies). */
export function redactValue<T>(value: T, env: Env = process.env): T {
  if (value === undefined) return value;
  try {
    const text = JSON.stringify(value);
    const clean = redact(text, env);
    // unchanged values keep their identity (and skip a parse)
    return clean === text ? value : (JSON.parse(clean) as T);
  } catch {
    return undefined as T;
  }
}

/** The error as it may be shown to a client: an AppError whose message, location and details hold no secret. */
export function safeError(e: unknown, fallback: Parameters<typeof toAppError>[1] = "internal", env: Env = process.env): AppError {
  const err = toAppError(e, fallback);
  const message = redact(err.message, env);
  const where = redactValue(err.where, env);
  const details = redactValue(err.details, env);
  if (message === err.message && JSON.stringify(where) === JSON.stringify(err.where) && JSON.stringify(details) === JSON.stringify(err.details)) return err;
  // no cause: the original (with the secret) must not travel further
  return new AppError(err.code, message, { where, details });
}

/** What to log for an error: name, message, stack and the chain of causes, all as redacted text (never raw objects). */
export function describeForLog(e: unknown, env: Env = process.env): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let depth = 0; cur !== undefined && cur !== null && depth < 5; depth++) {
    if (cur instanceof Error) {
      const code = cur instanceof AppError ? ` [${cur.code}]` : "";
      parts.push(`${depth ? "caused by " : ""}${cur.stack ?? `${cur.name}: ${cur.message}`}${code}`);
      cur = (cur as { cause?: unknown }).cause;
    } else {
      parts.push(`${depth ? "caused by " : ""}${String(cur)}`);
      break;
    }
  }
  return redact(parts.join("\n"), env);
}

/** console.error with the error redacted (the only way server code should log an error object). */
export function logError(prefix: string, e: unknown, env: Env = process.env): void {
  console.error(`${prefix} ${describeForLog(e, env)}`);
}

/** console.warn with a redacted message. */
export function logWarn(message: string, env: Env = process.env): void {
  console.warn(redact(message, env));
}

/**
 * An endpoint URL with its user:password moved into an Authorization header: fetch refuses URLs with credentials
 * (and its error message would quote them), and the URL can then be shown and logged safely.
 */
export function splitUrlCredentials(url: string): { url: string; headers?: Record<string, string> } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url };
  }
  if (!u.username && !u.password) return { url };
  const user = decodeURIComponent(u.username);
  const pass = decodeURIComponent(u.password);
  u.username = "";
  u.password = "";
  return { url: u.toString(), headers: { authorization: `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}` } };
}
