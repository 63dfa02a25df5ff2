// GET /api/entity?kgId=&iri=: label, types, description and capped edges of one IRI, for clickable results.
import { entityQuerySchema } from "@/lib/api/contract";
import { describeEntity } from "@/lib/server/entity";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, iri } = parseWith(entityQuerySchema, searchParamsOf(request), "query string");
    const kg = await getServices().registry.getKg(sessionId, kgId);
    return json(await describeEntity(kg, iri, { signal: request.signal }));
  });
}
