// POST /api/kg/endpoint: adds a SPARQL endpoint for this session after a quick ASK probe.
import { endpointRequestSchema, type KgCreatedResponse } from "@/lib/api/contract";
import { ENDPOINT_BODY_LIMIT, readJsonLimited } from "@/lib/server/body-limit";
import { handle, json } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const body = await readJsonLimited(request, endpointRequestSchema, ENDPOINT_BODY_LIMIT);
    const kg = await getServices().registry.addEndpoint(sessionId, body);
    const response: KgCreatedResponse = { kg };
    return json(response, { status: 201 });
  });
}
