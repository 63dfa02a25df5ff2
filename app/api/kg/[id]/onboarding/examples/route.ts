// GET ?limit=&offset=&shape=&status=: the KG's generated (and promoted) examples, newest first, with their total.
import { examplesQuerySchema } from "@/lib/api/onboarding";
import { handle, json, parseWith, searchParamsOf } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const kgId = await kgIdOf(context);
    const options = parseWith(examplesQuerySchema, searchParamsOf(request), "query");
    return json(await getOnboardingApi().examples(sessionId, kgId, options));
  });
}
