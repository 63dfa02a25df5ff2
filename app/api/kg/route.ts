// GET /api/kg: the knowledge graphs this session can chat with (the default one, its uploads and endpoints), each with
// the strategy a new conversation on it uses and why.
import type { KgListResponse } from "@/lib/api/contract";
import { defaultStrategiesFor } from "@/lib/server/default-strategy";
import { getEvalRunStore } from "@/lib/server/eval-runs";
import { handle, json } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { registry } = getServices();
    // each KG says which strategy a new conversation on it uses, and why (the settings show it)
    const kgs = defaultStrategiesFor(await registry.list(sessionId), registry.defaultKgId, getEvalRunStore());
    const body: KgListResponse = { kgs, defaultKgId: registry.defaultKgId };
    return json(body);
  });
}
