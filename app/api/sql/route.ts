// POST /api/sql: runs one read-only SELECT from the query panel over the database induced from one of the session's KGs.
import { sqlRequestSchema } from "@/lib/api/contract";
import { readJsonLimited, SPARQL_BODY_LIMIT } from "@/lib/server/body-limit";
import { handle, json } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";
import { runConsoleSql } from "@/lib/server/sql-console";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, query } = await readJsonLimited(request, sqlRequestSchema, SPARQL_BODY_LIMIT);
    const kg = await getServices().registry.getKg(sessionId, kgId);
    return json(await runConsoleSql(kg, query, { signal: request.signal }));
  });
}
