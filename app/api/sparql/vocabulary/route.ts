// GET /api/sparql/vocabulary?kgId=[&class=IRI]: the KG's prefixes, classes and predicates for the workbench's
// completion, or the predicates a class's instances use (the KG's onboarding profile, else bounded queries cached per KG).
import { vocabularyQuerySchema } from "@/lib/api/contract";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";
import { currentClassPredicates, currentVocabulary } from "@/lib/server/sparql-assist/vocabulary";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { kgId, class: cls } = parseWith(vocabularyQuerySchema, searchParamsOf(request), "query string");
    const services = getServices();
    const kg = await services.registry.getKg(sessionId, kgId);
    // the onboarding profile, once the KG has one, else bounded queries
    const profile = () => services.onboarding.getProfile(kgId);
    return json(cls ? await currentClassPredicates(kg, cls, profile) : await currentVocabulary(kg, profile, request.signal));
  });
}
