// Request body size caps for route handlers: refuse by Content-Length first, then read the stream with a byte cap (413).
import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseWith } from "./http";

/** POST /api/turns and /api/turns/[id]/retry: a question (≤ 10,000 chars) plus config fits easily. */
export const TURN_BODY_LIMIT = 64 * 1024;
/** POST /api/sparql: the query itself may be up to 100,000 characters; JSON framing gets a little headroom. */
export const SPARQL_BODY_LIMIT = 100 * 1024 + 1024;
/** POST /api/kg/endpoint: a URL, a name and an optional profile. */
export const ENDPOINT_BODY_LIMIT = 64 * 1024;

function tooLarge(limit: number): AppError {
  const size = limit >= 1024 * 1024 ? `${Math.round(limit / 1024 / 1024)} MB` : `${Math.round(limit / 1024)} KB`;
  return new AppError("too_large", `The request body is larger than ${size}.`, { details: { limitBytes: limit } });
}

/**
 * The body as bytes, at most `limit` of them. An announced Content-Length over the limit is refused before anything
 * is read; a body without one (chunked) or lying about it is cut off as soon as it passes the limit.
 */
export async function readBodyLimited(request: Request, limit: number): Promise<Uint8Array> {
  const announced = request.headers.get("content-length");
  if (announced !== null && Number(announced) > limit) throw tooLarge(limit);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      // stop reading: the rest of an oversized body is never buffered
      await reader.cancel().catch(() => {});
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** Reads a JSON body of at most `limit` bytes and parses it with the schema (413, then 400 for bad JSON or shape). */
export async function readJsonLimited<S extends z.ZodType>(request: Request, schema: S, limit: number): Promise<z.output<S>> {
  const bytes = await readBodyLimited(request, limit);
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new AppError("bad_request", "The request body is not valid JSON.");
  }
  return parseWith(schema, body, "request body");
}
