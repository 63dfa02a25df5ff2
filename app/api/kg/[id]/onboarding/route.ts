// The onboarding of one KG: GET its job (null when never prepared), POST { action: "start" | "resume" | "rerun" } to
// prepare it (202 with the job; it runs in the background), DELETE to stop it (what it finished is kept).
import { onboardingActionSchema } from "@/lib/api/onboarding";
import { readJsonLimited } from "@/lib/server/body-limit";
import { handle, json } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf, ONBOARDING_BODY_LIMIT } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export function GET(_request: Request, context: Context): Promise<Response> {
  return handle(async () => json(await getOnboardingApi().status(await getSessionId(), await kgIdOf(context))));
}

export function POST(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const kgId = await kgIdOf(context);
    const body = await readJsonLimited(request, onboardingActionSchema, ONBOARDING_BODY_LIMIT);
    return json(await getOnboardingApi().act(sessionId, kgId, body), { status: 202 });
  });
}

export function DELETE(_request: Request, context: Context): Promise<Response> {
  return handle(async () => json(await getOnboardingApi().cancel(await getSessionId(), await kgIdOf(context))));
}
