// POST /api/turns/[id]/retry: re-runs a failed or interrupted turn; the same stream as POST /api/turns.
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { readJsonLimited, TURN_BODY_LIMIT } from "@/lib/server/body-limit";
import { handle } from "@/lib/server/http";
import { getRateLimiter } from "@/lib/server/limiters";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    // counted before anything is read or saved: a refused run (429) stores nothing
    await getRateLimiter().acquire(sessionId);
    const { id } = await context.params;
    // an oversized body is still a 413; an empty or unreadable one re-runs as before
    const body =
      request.headers.get("content-length") === "0"
        ? {}
        : await readJsonLimited(request, z.unknown(), TURN_BODY_LIMIT).catch((e: unknown) => {
            if (e instanceof AppError && e.code === "too_large") throw e;
            return {};
          });
    const { runner } = getServices();
    const prepared = await runner.prepareRetry(sessionId, id, body);
    // no-transform: Next's gzip would otherwise compress every small SSE flush, a measurable CPU cost under load
    return runner.response(prepared, request.signal, { "cache-control": "no-cache, no-transform" });
  });
}
