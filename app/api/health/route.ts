// Liveness probe: answers immediately, without touching the database, the KG or any model.
const startedAt = Date.now();

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ ok: true, uptimeMs: Date.now() - startedAt }, { headers: { "cache-control": "no-store" } });
}
