// POST /api/sparql/check {kgId, query}: the workbench's diagnostics (syntax, read-only refusal, KG checks), each at
// its place in the query. A syntax error is a diagnostic here, not a 400: the editor shows it where it is.
import { checkRequestSchema } from "@/lib/api/contract";
import { readJsonLimited, SPARQL_BODY_LIMIT } from "@/lib/server/body-limit";
import { handle, json } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";
import { serviceAllowed } from "@/lib/server/sparql-console";
import { checkQuery } from "@/lib/server/sparql-assist/check";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, query } = await readJsonLimited(request, checkRequestSchema, SPARQL_BODY_LIMIT);
    const services = getServices();
    const kg = await services.registry.getKg(sessionId, kgId);
    return json(await checkQuery(kg, query, { allowService: serviceAllowed(), signal: request.signal, profile: () => services.onboarding.getProfile(kgId) }));
  });
}
