// GET ?n=4..6: suggested questions for the start page, drawn from this KG's generated examples (empty until they exist).
import { SUGGESTIONS_DEFAULT, suggestionsQuerySchema } from "@/lib/api/onboarding";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const kgId = await kgIdOf(context);
    const { n } = parseWith(suggestionsQuerySchema, searchParamsOf(request), "query");
    return json(await getOnboardingApi().suggestions(sessionId, kgId, n ?? SUGGESTIONS_DEFAULT));
  });
}
