// POST /api/sparql: runs a read-only query from the SPARQL panel against one of the session's KGs.
import { sparqlRequestSchema } from "@/lib/api/contract";
import { readJsonLimited, SPARQL_BODY_LIMIT } from "@/lib/server/body-limit";
import { handle, json } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";
import { runConsoleQuery, serviceAllowed } from "@/lib/server/sparql-console";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, query } = await readJsonLimited(request, sparqlRequestSchema, SPARQL_BODY_LIMIT);
    const kg = await getServices().registry.getKg(sessionId, kgId);
    return json(await runConsoleQuery(kg, query, { allowService: serviceAllowed(), signal: request.signal }));
  });
}
