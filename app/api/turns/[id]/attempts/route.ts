// GET /api/turns/[id]/attempts: every attempt of a turn (the first run and each re-run after a correction), oldest
// first, with their answers and derivations. Another session's turn is a 404.
import type { AttemptsResponse } from "@/lib/api/contract";
import { getQueries } from "@/lib/db/queries";
import { toAttemptDto } from "@/lib/server/export";
import { handle, json } from "@/lib/server/http";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { id } = await context.params;
    const attempts = await getQueries().listAttempts({ sessionId, turnId: id });
    return json({ turnId: id, attempts: attempts.map(toAttemptDto) } satisfies AttemptsResponse);
  });
}
