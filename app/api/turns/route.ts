// POST /api/turns: asks a question; answers with a UI message stream (data-turn, data-event…, data-result).
import { z } from "zod";
import { readJsonLimited, TURN_BODY_LIMIT } from "@/lib/server/body-limit";
import { handle } from "@/lib/server/http";
import { getRateLimiter } from "@/lib/server/limiters";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    // counted before anything is read or saved: a refused run (429) stores nothing
    await getRateLimiter().acquire(sessionId);
    const body = await readJsonLimited(request, z.unknown(), TURN_BODY_LIMIT);
    const { runner } = getServices();
    // validation, ownership and saving the question happen before the stream: their errors are plain JSON + status
    const prepared = await runner.prepareTurn(sessionId, body);
    // no-transform: Next's gzip would otherwise compress every small SSE flush, a measurable CPU cost under load
    return runner.response(prepared, request.signal, { "cache-control": "no-cache, no-transform" });
  });
}
