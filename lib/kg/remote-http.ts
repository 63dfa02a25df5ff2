// One HTTP call to a KG service with a timeout, the caller's abort signal, a reply size cap and AppError mapping.
import { AppError } from "@/lib/errors";

export const DEFAULT_MAX_RESPONSE_BYTES = 50 * 1024 * 1024;

export interface HttpCall {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  timeoutMs: number;
  signal?: AbortSignal;
  maxBytes?: number;
  /** injected for tests; defaults to the global fetch */
  fetch?: typeof fetch;
  /** what is being called, for messages ("SPARQL endpoint", "entity search API") */
  what: string;
}

export interface HttpReply {
  status: number;
  contentType: string;
  text: string;
  headers: Headers;
}

/** Performs the request; resolves only for 2xx replies, otherwise throws a clear AppError. */
export async function httpCall(call: HttpCall): Promise<HttpReply> {
  const host = hostOf(call.url);
  if (call.signal?.aborted) throw abortedError(call.signal);
  const timeout = AbortSignal.timeout(call.timeoutMs);
  const signal = call.signal ? AbortSignal.any([timeout, call.signal]) : timeout;
  const maxBytes = call.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // Which signal fired decides between "timed out" and "cancelled".
  const classify = (e: unknown, phase: "connect" | "read"): AppError => {
    if (call.signal?.aborted) return abortedError(call.signal, e);
    if (timeout.aborted) {
      return new AppError("kg_timeout", `The ${call.what} at ${host} did not answer within ${call.timeoutMs} ms.`, {
        cause: e,
        details: { host, timeoutMs: call.timeoutMs },
      });
    }
    if (e instanceof AppError) return e;
    return networkError(e, host, call.what, phase);
  };

  let res: Response;
  try {
    res = await (call.fetch ?? fetch)(call.url, {
      method: call.method,
      headers: call.headers,
      body: call.body,
      signal,
      redirect: "follow",
    });
  } catch (e) {
    throw classify(e, "connect");
  }

  let text: string;
  try {
    text = await readCapped(res, maxBytes, host, call.what);
  } catch (e) {
    throw classify(e, "read");
  }
  const contentType = (res.headers.get("content-type") ?? "").toLowerCase();
  if (res.status < 200 || res.status >= 300) {
    const snippet = bodySnippet(text, contentType);
    throw new AppError(
      "kg_http",
      `The ${call.what} at ${host} answered HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ""}${snippet ? `: ${snippet}` : "."}`,
      { details: { host, status: res.status, snippet } },
    );
  }
  return { status: res.status, contentType, text, headers: res.headers };
}

async function readCapped(res: Response, maxBytes: number, host: string, what: string): Promise<string> {
  const tooLarge = () =>
    new AppError("kg_bad_response", `The reply from the ${what} at ${host} is larger than ${formatBytes(maxBytes)}; it was cut off.`, {
      details: { host, limitBytes: maxBytes },
    });
  const declared = Number(res.headers.get("content-length") ?? NaN);
  if (Number.isFinite(declared) && declared > maxBytes) {
    await res.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (!res.body) return "";
  const reader = res.body.getReader();
  const decoder = new TextDecoder("utf-8");
  let total = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}

function networkError(e: unknown, host: string, what: string, phase: "connect" | "read"): AppError {
  const code = errorCode(e);
  if (phase === "read") {
    return new AppError("kg_bad_response", `The connection to the ${what} at ${host} broke before the reply was complete.`, {
      cause: e,
      details: { host, code },
    });
  }
  const reason =
    code === "ENOTFOUND" || code === "EAI_AGAIN"
      ? "the host name could not be resolved"
      : code === "ECONNREFUSED"
        ? "the connection was refused"
        : code === "ECONNRESET" || code === "UND_ERR_SOCKET"
          ? "the server closed the connection"
          : code === "CERT_HAS_EXPIRED" || (code ?? "").includes("CERT") || (code ?? "").includes("TLS")
            ? "the TLS handshake failed"
            : "the network request failed";
  return new AppError("kg_unreachable", `Cannot reach the ${what} at ${host}: ${reason}${code ? ` (${code})` : ""}.`, {
    cause: e,
    details: { host, code },
  });
}

/** The first system error code in an error's cause chain (undici wraps them in "fetch failed"). */
function errorCode(e: unknown): string | undefined {
  for (let cur: unknown = e, depth = 0; cur && depth < 5; depth++) {
    const c = (cur as { code?: unknown }).code;
    if (typeof c === "string") return c;
    cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

function abortedError(signal: AbortSignal, cause?: unknown): AppError {
  return new AppError("aborted", "The request was cancelled.", { cause: cause ?? signal.reason });
}

/** host[:port] of a URL without credentials, for messages. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return "(invalid URL)";
  }
}

/** A short single-line excerpt of a body for error messages; HTML tags are removed. */
export function bodySnippet(text: string, contentType = "", max = 300): string {
  let t = text;
  if (contentType.includes("html") || /^\s*</.test(t)) {
    t = t.replace(/<(script|style)[\s\S]*?<\/\1>/gi, " ").replace(/<[^>]*>/g, " ");
  }
  t = t.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max)}…` : t;
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round(n / (1024 * 1024))} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} bytes`;
}
