// Route-handler plumbing: parse input with a contract schema, and map any thrown error to `{ error }` + HTTP status.
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { ApiErrorBody } from "@/lib/api/contract";
import { logError, safeError } from "./security";

/** JSON response with no caching (every API answer is per session). */
export function json(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set("cache-control", "no-store");
  return Response.json(body, { ...init, headers });
}

/** The one error mapping of the API: AppError -> its status and `{ error: err.toJSON() }`; anything else -> 500. */
export function errorResponse(e: unknown): Response {
  // redacted: a library error may quote a key or an endpoint's credentials
  const err = safeError(e);
  if (err.code === "internal") logError("[chatty-kg] internal error:", e);
  const body: ApiErrorBody = { error: err.toJSON() };
  // a 429 says when to come back (RFC 9110 Retry-After, in seconds)
  const retryAfterS = err.details?.retryAfterS;
  const headers = typeof retryAfterS === "number" ? { "retry-after": String(retryAfterS) } : undefined;
  return json(body, { status: err.status, headers });
}

/** Runs a handler and turns whatever it throws into an error response. */
export async function handle(work: () => Promise<Response>): Promise<Response> {
  try {
    return await work();
  } catch (e) {
    return errorResponse(e);
  }
}

/** Parses a value with a schema; a mismatch is a 400 naming the first problems. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = "request"): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    throw new AppError("bad_request", `Invalid ${what}: ${z.prettifyError(parsed.error)}`, {
      details: { issues: parsed.error.issues.slice(0, 5).map((i) => ({ path: i.path.join("."), message: i.message })) },
    });
  }
  return parsed.data;
}

/** Reads a JSON body and parses it; malformed JSON is a 400 too. */
export async function readJson<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  let body: unknown;
  try {
    body = await request.json();
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  return parseWith(schema, body, "request body");
}

/** Query-string parameters as a plain object for a schema. */
export function searchParamsOf(request: Request): Record<string, string> {
  return Object.fromEntries(new URL(request.url).searchParams);
}
