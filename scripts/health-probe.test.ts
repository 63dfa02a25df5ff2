import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs module (scripts/serve.mjs runs without a build step)
import { withHealthProbe } from "./health-probe.mjs";

let server: http.Server;
let base = "";
const seen: string[] = [];

beforeAll(async () => {
  const next = (req: http.IncomingMessage, res: http.ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    res.end("from next");
  };
  server = http.createServer(withHealthProbe(next, Date.now() - 5000));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the liveness probe of scripts/serve.mjs", () => {
  it("answers GET /api/health itself, like the Next route, uncached", async () => {
    for (const url of ["/api/health", "/api/health?x=1"]) {
      const res = await fetch(base + url, { signal: AbortSignal.timeout(5000) });
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      const body = (await res.json()) as { ok: boolean; uptimeMs: number };
      expect(body.ok).toBe(true);
      expect(body.uptimeMs).toBeGreaterThanOrEqual(5000);
    }
    expect(seen).toEqual([]);
  });

  it("hands every other request to Next", async () => {
    for (const [method, url] of [["GET", "/"], ["POST", "/api/health"], ["GET", "/api/healthz"]]) {
      const res = await fetch(base + url, { method, signal: AbortSignal.timeout(5000) });
      expect(await res.text()).toBe("from next");
    }
    expect(seen).toEqual(["GET /", "POST /api/health", "GET /api/healthz"]);
  });
});
