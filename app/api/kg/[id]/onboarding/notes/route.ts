// GET: the KG notes every strategy's prompt gets; PUT { text }: the user's own text (null: back to the derived notes).
import { notesRequestSchema } from "@/lib/api/onboarding";
import { readJsonLimited } from "@/lib/server/body-limit";
import { handle, json } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf, ONBOARDING_BODY_LIMIT } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

type Context = { params: Promise<{ id: string }> };

export function GET(_request: Request, context: Context): Promise<Response> {
  return handle(async () => json(await getOnboardingApi().notes(await getSessionId(), await kgIdOf(context))));
}

export function PUT(request: Request, context: Context): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const kgId = await kgIdOf(context);
    const { text } = await readJsonLimited(request, notesRequestSchema, ONBOARDING_BODY_LIMIT);
    return json(await getOnboardingApi().setNotes(sessionId, kgId, text || null));
  });
}
