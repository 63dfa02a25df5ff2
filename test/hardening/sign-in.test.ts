// Sign-in for shared deployments on the real handlers (Auth.js routes, an API route, the proxy, the sign-in action):
// signed out → 401 / sent to /signin, a wrong password refused, the right one lets the browser in, and two signed-in
// browsers keep separate sessions.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { NextRequest } from "next/server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

const PASSWORD = "correct horse battery staple";
const ORIGIN = "http://localhost:3000";

/** One browser's cookies. */
class Browser {
  jar = new Map<string, string>();
  header(): string {
    return [...this.jar].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  take(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const at = pair.indexOf("=");
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1)];
      // a cookie set with an expiry in the past (or empty) is a deletion
      if (!value || attrs.some((a) => /max-age=0\b/i.test(a.trim()))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }
  request(path: string, init: RequestInit = {}): NextRequest {
    // as Next's server passes them on: Auth.js picks its cookie names (Secure or not) from the protocol
    const headers = new Headers({ host: "localhost:3000", "x-forwarded-proto": "http", ...Object.fromEntries(new Headers(init.headers)) });
    if (this.jar.size) headers.set("cookie", this.header());
    return new NextRequest(`${ORIGIN}${path}`, { ...init, headers } as ConstructorParameters<typeof NextRequest>[1]);
  }
}

let current = new Browser();
/** what the headers() seen by server actions say about the client's address ("" = nothing) */
let forwardedFor = "";
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (current.jar.has(name) ? { name, value: current.jar.get(name) } : undefined),
    getAll: () => [...current.jar].map(([name, value]) => ({ name, value })),
    has: (name: string) => current.jar.has(name),
    set: (name: string, value: string, options?: { maxAge?: number }) => {
      if (options?.maxAge === 0 || value === "") current.jar.delete(name);
      else current.jar.set(name, value);
    },
    delete: (name: string) => void current.jar.delete(name),
  }),
  headers: async () =>
    new Headers({ cookie: current.header(), host: "localhost:3000", "x-forwarded-proto": "http", ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) }),
}));

let tmp: TempDb;
let authRoute: typeof import("@/app/api/auth/[...nextauth]/route");
let kgRoute: typeof import("@/app/api/kg/route");
let healthRoute: typeof import("@/app/api/health/route");
let proxy: typeof import("@/proxy").proxy;
let signInAction: typeof import("@/app/signin/actions").signInWithPassword;

beforeAll(async () => {
  tmp = await createTempDb();
  process.env.DATABASE_URL = tmp.url;
  process.env.SESSION_SECRET = "sign-in-test-session-secret-0123456789";
  process.env.AUTH_PASSWORD = PASSWORD;
  process.env.AUTH_SECRET = "sign-in-test-auth-secret-0123456789abcdef";
  authRoute = await import("@/app/api/auth/[...nextauth]/route");
  kgRoute = await import("@/app/api/kg/route");
  healthRoute = await import("@/app/api/health/route");
  ({ proxy } = await import("@/proxy"));
  ({ signInWithPassword: signInAction } = await import("@/app/signin/actions"));
});
afterAll(async () => {
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await tmp.close();
});

/** Signs a browser in through Auth.js's credentials callback (what the sign-in form's action does server-side). */
async function postPassword(b: Browser, password: string): Promise<Response> {
  const csrf = await authRoute.GET(b.request("/api/auth/csrf"));
  b.take(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await authRoute.POST(
    b.request("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, password, callbackUrl: `${ORIGIN}/c/abc` }).toString(),
    }),
  );
  b.take(res);
  return res;
}

const hasSession = (b: Browser) => [...b.jar.keys()].some((k) => k.endsWith("authjs.session-token"));
const proxyWith = (b: Browser, path: string, method = "GET") => proxy(b.request(path, { method }), {} as never);

describe("sign-in on (AUTH_PASSWORD set)", () => {
  it("a signed-out browser gets 401 from the API, is sent to /signin by pages, and reaches only health and sign-in", async () => {
    current = new Browser();
    const api = await kgRoute.GET();
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("unauthorized");
    expect(current.jar.has("ckg_session")).toBe(false); // no app session for a stranger

    const page = await proxyWith(current, "/c/abc");
    expect(page.status).toBe(307);
    expect(new URL(page.headers.get("location")!).pathname + new URL(page.headers.get("location")!).search).toBe("/signin?callbackUrl=%2Fc%2Fabc");
    expect((await proxyWith(current, "/", "POST")).status).toBe(401); // a server action posted to a page
    expect((await proxyWith(current, "/signin")).headers.get("x-middleware-next")).toBe("1");
    expect(healthRoute.GET().status).toBe(200);
  });

  it("a wrong password is refused: no session cookie, back to the sign-in page with an error", async () => {
    current = new Browser();
    const res = await postPassword(current, "wrong password");
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get("location")!);
    expect(to.pathname).toBe("/signin");
    expect(to.searchParams.get("error")).toBe("CredentialsSignin");
    expect(hasSession(current)).toBe(false);
    expect((await kgRoute.GET()).status).toBe(401);
  });

  it("the right password signs the browser in: API and pages open", async () => {
    current = new Browser();
    const res = await postPassword(current, PASSWORD);
    expect(res.status).toBe(302);
    expect(new URL(res.headers.get("location")!).pathname).toBe("/c/abc");
    expect(hasSession(current)).toBe(true);
    const api = await kgRoute.GET();
    expect(api.status).toBe(200);
    expect(((await api.json()) as { defaultKgId: string }).defaultKgId).toBeTruthy();
    expect((await proxyWith(current, "/c/abc")).headers.get("x-middleware-next")).toBe("1");
    // a forged or tampered session cookie is not a session
    const forged = new Browser();
    for (const [k, v] of current.jar) forged.jar.set(k, k.endsWith("session-token") ? `${v.slice(0, -4)}AAAA` : v);
    expect((await proxyWith(forged, "/c/abc")).status).toBe(307);
  });

  it("the sign-in form's action: a wrong password back to /signin?error, the right one to where the browser came from", async () => {
    current = new Browser();
    const form = (password: string) => {
      const f = new FormData();
      f.set("password", password);
      f.set("callbackUrl", "/eval");
      return f;
    };
    const redirectOf = async (p: Promise<unknown>) => {
      const e = (await p.then(() => undefined, (err: unknown) => err)) as { digest?: string } | undefined;
      return e?.digest?.split(";")[2];
    };
    expect(await redirectOf(signInAction(form("nope")))).toBe("/signin?error=1&callbackUrl=%2Feval");
    expect(hasSession(current)).toBe(false);
    expect(await redirectOf(signInAction(form(PASSWORD)))).toMatch(/^(http:\/\/localhost:3000)?\/eval$/);
    expect(hasSession(current)).toBe(true);
    expect((await kgRoute.GET()).status).toBe(200);
  });

  it("password tries are limited per address (429 with Retry-After; the form says to wait), the right password too", async () => {
    current = new Browser();
    const from = { "x-forwarded-for": "203.0.113.7" };
    const csrf = await authRoute.GET(current.request("/api/auth/csrf"));
    current.take(csrf);
    const { csrfToken } = (await csrf.json()) as { csrfToken: string };
    const tryPassword = (password: string) =>
      authRoute.POST(
        current.request("/api/auth/callback/credentials", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...from },
          body: new URLSearchParams({ csrfToken, password }).toString(),
        }),
      );
    for (let i = 0; i < 10; i++) expect((await tryPassword(`guess ${i}`)).status).toBe(302);
    const refused = await tryPassword(PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/Too many sign-in attempts from this address/);
    expect(hasSession(current)).toBe(false);
    // the form's action is limited the same way, per address
    forwardedFor = "198.51.100.9";
    const f = new FormData();
    f.set("password", "guess");
    const outcomes: (string | undefined)[] = [];
    for (let i = 0; i < 11; i++) outcomes.push(((await signInAction(f).catch((e: unknown) => e)) as { digest?: string }).digest?.split(";")[2]);
    forwardedFor = "";
    expect(outcomes.slice(0, 10)).toEqual(Array(10).fill("/signin?error=1"));
    expect(outcomes[10]).toBe("/signin?error=limit");
  });

  it("two browsers signed in with the same password keep separate app sessions", async () => {
    const a = new Browser();
    const b = new Browser();
    for (const browser of [a, b]) {
      await postPassword(browser, PASSWORD);
      current = browser;
      expect((await kgRoute.GET()).status).toBe(200);
    }
    expect(a.jar.get("ckg_session")).toBeTruthy();
    expect(b.jar.get("ckg_session")).toBeTruthy();
    expect(a.jar.get("ckg_session")!.split(".")[0]).not.toBe(b.jar.get("ckg_session")!.split(".")[0]);
  });
});
