// The load test's browser against the real Auth.js handlers and an API route, in process: it signs in with the
// shared password, keeps every cookie (CSRF, Auth.js session, the app's own session), and is refused a wrong password.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";
import { LoadBrowser } from "./browser";

const PASSWORD = "load-test shared password";
const BASE = "http://localhost:3000";

// the cookies of the request being handled, as next/headers shows them to the app's handlers
let requestCookies = new Map<string, string>();
let setCookies: string[] = [];
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (requestCookies.has(name) ? { name, value: requestCookies.get(name) } : undefined),
    getAll: () => [...requestCookies].map(([name, value]) => ({ name, value })),
    has: (name: string) => requestCookies.has(name),
    set: (name: string, value: string) => void setCookies.push(`${name}=${value}; Path=/; HttpOnly`),
    delete: (name: string) => void setCookies.push(`${name}=; Max-Age=0`),
  }),
  headers: async () => new Headers({ cookie: [...requestCookies].map(([k, v]) => `${k}=${v}`).join("; "), host: "localhost:3000", "x-forwarded-proto": "http" }),
}));

let tmp: TempDb;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");
let kgRoute: typeof import("@/app/api/kg/route");

/** fetch into the route handlers, as Next's server would hand them the request */
const inProcessFetch: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  const headers = new Headers(init?.headers);
  headers.set("host", url.host);
  headers.set("x-forwarded-proto", "http");
  requestCookies = new Map((headers.get("cookie") ?? "").split(/;\s*/).filter(Boolean).map((c) => [c.slice(0, c.indexOf("=")), c.slice(c.indexOf("=") + 1)]));
  setCookies = [];
  const req = new NextRequest(url, { ...init, headers } as ConstructorParameters<typeof NextRequest>[1]);
  let res: Response;
  if (url.pathname.startsWith("/api/auth/")) res = await (init?.method === "POST" ? authRoute.POST(req) : authRoute.GET(req));
  else if (url.pathname === "/api/kg") res = await kgRoute.GET();
  else res = new Response("not found", { status: 404 });
  // what the handlers set through next/headers travels on the response, as Next does
  if (setCookies.length === 0) return res;
  const out = new Headers(res.headers);
  for (const c of setCookies) out.append("set-cookie", c);
  return new Response(res.body, { status: res.status, headers: out });
};

beforeAll(async () => {
  tmp = await createTempDb();
  process.env.DATABASE_URL = tmp.url;
  process.env.SESSION_SECRET = "load-browser-test-session-secret-0123456789";
  process.env.AUTH_PASSWORD = PASSWORD;
  process.env.AUTH_SECRET = "load-browser-test-auth-secret-0123456789abcdef";
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  kgRoute = await import("@/app/api/kg/route");
});
afterAll(async () => {
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await tmp.close();
});

describe("load-test browser", () => {
  it("signs in with the shared password and keeps every cookie: Auth.js's session and the app's own", async () => {
    const b = new LoadBrowser({ base: BASE, fetch: inProcessFetch, address: "10.9.0.1" });
    expect((await b.fetch("/api/kg")).status).toBe(401);
    await b.signIn(PASSWORD);
    expect(b.signedIn).toBe(true);
    expect([...b.jar.keys()].some((k) => k.endsWith("authjs.csrf-token"))).toBe(true);
    expect((await b.fetch("/api/kg")).status).toBe(200);
    expect(b.jar.has("ckg_session")).toBe(true);
    // the session cookie is sent back: the same app session on the next request
    const session = b.jar.get("ckg_session");
    expect((await b.fetch("/api/kg")).status).toBe(200);
    expect(b.jar.get("ckg_session")).toBe(session);
  });

  it("a wrong password is refused with a clear error and no session", async () => {
    const b = new LoadBrowser({ base: BASE, fetch: inProcessFetch, address: "10.9.0.2" });
    await expect(b.signIn("not it")).rejects.toThrow(/sign-in: refused .*wrong password/);
    expect(b.signedIn).toBe(false);
    expect((await b.fetch("/api/kg")).status).toBe(401);
  });
});
