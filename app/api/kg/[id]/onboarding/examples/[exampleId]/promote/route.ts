// POST: a thumbs-up for a generated example: it is kept through re-runs and ranked with the imported pairs.
import type { ExampleResponse } from "@/lib/api/onboarding";
import { idSchema } from "@/lib/api/shared";
import { handle, json, parseWith } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function POST(_request: Request, context: { params: Promise<{ id: string; exampleId: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const kgId = await kgIdOf(context);
    const exampleId = parseWith(idSchema, (await context.params).exampleId, "example id");
    const body: ExampleResponse = await getOnboardingApi().promoteExample(sessionId, kgId, exampleId);
    return json(body);
  });
}
