// GET /api/sparql/vocabulary?kgId=[&class=IRI]: the KG's prefixes, classes and predicates for the workbench's
// completion, or the predicates a class's instances use (bounded queries, cached per KG).
import { vocabularyQuerySchema } from "@/lib/api/contract";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";
import { getClassPredicates, getVocabulary } from "@/lib/server/sparql-assist/vocabulary";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, class: cls } = parseWith(vocabularyQuerySchema, searchParamsOf(request), "query string");
    const kg = await getServices().registry.getKg(sessionId, kgId);
    return json(cls ? await getClassPredicates(kg, cls) : await getVocabulary(kg, request.signal));
  });
}
