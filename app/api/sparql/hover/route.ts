// GET /api/sparql/hover?kgId=&iri=: an IRI's names, types, description and bounded counts, for the workbench's hover.
import { hoverQuerySchema } from "@/lib/api/contract";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";
import { hoverFacts } from "@/lib/server/sparql-assist/hover";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, iri } = parseWith(hoverQuerySchema, searchParamsOf(request), "query string");
    const kg = await getServices().registry.getKg(sessionId, kgId);
    return json(await hoverFacts(kg, iri, { signal: request.signal, timeoutMs: 10_000 }));
  });
}
