// GET: the onboarding progress of one KG as a UI message stream (Server-Sent Events, as the turns): `data-onboarding`
// parts carrying the job's events until it ends or the client goes away. A GET, so the browser's EventSource reads it.
import { handle } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";
import { uiMessageSseResponse } from "@/lib/server/sse";
import { safeError } from "@/lib/server/security";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const kgId = await kgIdOf(context);
    const api = getOnboardingApi();
    // ownership is checked before the stream starts: a foreign KG is a plain 404
    await api.status(sessionId, kgId);
    return uiMessageSseResponse((write) => api.stream(sessionId, kgId, write, request.signal), {
      onError: (e) => safeError(e).message,
      headers: { "cache-control": "no-cache, no-transform" },
    });
  });
}
