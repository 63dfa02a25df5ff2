// POST /api/turns/[id]/rerun: re-runs a turn from the step the user corrected, as its next attempt; the same stream
// as POST /api/turns. Another session's turn is a 404; a correction that does not fit the attempt is a 400 and stores nothing.
import { z } from "zod";
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
    const body = await readJsonLimited(request, z.unknown(), TURN_BODY_LIMIT);
    const { runner } = getServices();
    const prepared = await runner.prepareRerun(sessionId, id, body);
    // no-transform: Next's gzip would otherwise compress every small SSE flush, a measurable CPU cost under load
    return runner.response(prepared, request.signal, { "cache-control": "no-cache, no-transform" });
  });
}
