// The liveness probe as scripts/serve.mjs answers it, before Next's router: the same JSON as app/api/health.

/** A request handler for GET /api/health; calls `next` for every other request. */
export function withHealthProbe(next, startedAt = Date.now()) {
  return (req, res) => {
    const path = req.url?.split("?")[0];
    if (req.method === "GET" && path === "/api/health") {
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      res.end(JSON.stringify({ ok: true, uptimeMs: Date.now() - startedAt }));
      return;
    }
    next(req, res);
  };
}
