// GET /api/kg: the knowledge graphs this session can chat with (the default one, its uploads and endpoints).
import type { KgListResponse } from "@/lib/api/contract";
import { handle, json } from "@/lib/server/http";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { registry } = getServices();
    const body: KgListResponse = { kgs: await registry.list(sessionId), defaultKgId: registry.defaultKgId };
    return json(body);
  });
}
