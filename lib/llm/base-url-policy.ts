// Which LLM base URLs a request may choose (LLM_ALLOWED_BASE_URLS): a shared server must not be made to call any host a user names.
import { AppError } from "@/lib/errors";

type Env = Record<string, string | undefined>;

export const ALLOWED_BASE_URLS_VAR = "LLM_ALLOWED_BASE_URLS";

/** Ollama on this machine: `npm run serve` binds to loopback, so a local model server is the natural choice. */
export const DEFAULT_ALLOWED_BASE_URLS = ["http://127.0.0.1:11434/v1", "http://localhost:11434/v1"] as const;

/** A URL in the form allow-list entries are compared in: scheme, host, port and path without trailing slashes; undefined when not a URL. */
export function normalizeBaseUrl(raw: string): string | undefined {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    return undefined;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return undefined;
  // user:password@, a query or a fragment never make a base URL "the same" as an allowed one
  if (u.username || u.password || u.search || u.hash) return undefined;
  return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, "")}`;
}

/** The allow-list: LLM_ALLOWED_BASE_URLS (comma or space separated) or the default, normalized. */
export function allowedBaseUrls(env: Env = process.env): string[] {
  const raw = env[ALLOWED_BASE_URLS_VAR]?.trim();
  const entries = raw ? raw.split(/[\s,]+/).filter(Boolean) : [...DEFAULT_ALLOWED_BASE_URLS];
  const out: string[] = [];
  for (const e of entries) {
    const n = normalizeBaseUrl(e);
    if (n && !out.includes(n)) out.push(n);
  }
  return out;
}

/**
 * Throws url_forbidden unless a base URL chosen in a request is on the allow-list. The server's own LLM_BASE_URL is
 * allowed as well: choosing it is the operator's choice, not the request's.
 */
export function checkRequestBaseUrl(baseURL: string, env: Env = process.env): void {
  const given = normalizeBaseUrl(baseURL);
  const own = env.LLM_BASE_URL?.trim() ? normalizeBaseUrl(env.LLM_BASE_URL) : undefined;
  const allowed = allowedBaseUrls(env);
  if (given && (given === own || allowed.includes(given))) return;
  const shown = given ?? baseURL.slice(0, 200);
  throw new AppError(
    "url_forbidden",
    `The LLM base URL ${shown} is not allowed on this server. Allowed: ${allowed.join(", ") || "none"}. ` +
      `An administrator can allow more with ${ALLOWED_BASE_URLS_VAR} (a comma-separated list of base URLs).`,
    { details: { variable: ALLOWED_BASE_URLS_VAR, allowed } },
  );
}
