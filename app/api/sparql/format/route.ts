// POST /api/sparql/format {kgId, query}: the query formatted with PREFIX lines and the KG's prefixes. A query that
// does not parse is a 400 sparql_syntax with its position (nothing to format).
import { formatRequestSchema, type FormatResponse } from "@/lib/api/contract";
import { readJsonLimited, SPARQL_BODY_LIMIT } from "@/lib/server/body-limit";
import { handle, json } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";
import { formatQuery } from "@/lib/server/sparql-assist/format";
import { knownPrefixes } from "@/lib/server/sparql-assist/vocabulary";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, query } = await readJsonLimited(request, formatRequestSchema, SPARQL_BODY_LIMIT);
    const services = getServices();
    const kg = await services.registry.getKg(sessionId, kgId);
    const formatted = formatQuery(query, await knownPrefixes(kg, 3_000, () => services.onboarding.getProfile(kgId)));
    const body: FormatResponse = formatted.droppedComments ? { query: formatted.query, note: "Formatting removed the query's # comments." } : { query: formatted.query };
    return json(body);
  });
}
