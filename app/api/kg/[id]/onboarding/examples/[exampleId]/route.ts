// DELETE: removes one generated or promoted example of the KG (another KG's example is a 404).
import { idSchema } from "@/lib/api/shared";
import { handle, json, parseWith } from "@/lib/server/http";
import { getOnboardingApi, kgIdOf } from "@/lib/server/onboarding-route";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function DELETE(_request: Request, context: { params: Promise<{ id: string; exampleId: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const kgId = await kgIdOf(context);
    const exampleId = parseWith(idSchema, (await context.params).exampleId, "example id");
    await getOnboardingApi().deleteExample(sessionId, kgId, exampleId);
    return json({ ok: true });
  });
}
