// GET /api/turns/[id]/provenance?attempt=&index=: the KG triples (or cited rows / passages) behind one answer item of
// a turn's attempt. Another session's turn is a 404.
import { provenanceQuerySchema } from "@/lib/api/contract";
import { getQueries } from "@/lib/db/queries";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { provenanceOf } from "@/lib/server/provenance";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { id } = await context.params;
    const args = parseWith(provenanceQuerySchema, searchParamsOf(request), "query string");
    return json(await provenanceOf({ queries: getQueries(), registry: getServices().registry }, sessionId, id, args, request.signal));
  });
}
