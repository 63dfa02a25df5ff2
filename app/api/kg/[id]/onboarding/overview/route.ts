// GET: the KG overview — the KG, its onboarding job, its profile (null until profiled) and its notes.
import { handle, json } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(_request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => json(await getOnboardingApi().overview(await getSessionId(), await kgIdOf(context))));
}
