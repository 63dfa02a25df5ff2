// GET /api/entity/search?kgId=&q=: vertices by label, with type and description hints (to link a mention by hand).
import { entitySearchQuerySchema } from "@/lib/api/contract";
import { searchEntities } from "@/lib/server/entity-search";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, q } = parseWith(entitySearchQuerySchema, searchParamsOf(request), "query string");
    const kg = await getServices().registry.getKg(sessionId, kgId);
    return json(await searchEntities(kg, q, { signal: request.signal, timeoutMs: 20_000 }));
  });
}
