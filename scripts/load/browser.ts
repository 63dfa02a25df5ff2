// One simulated browser of the load test: every cookie the app sets (the app session, Auth.js's CSRF and session
// cookies) kept and sent back, and sign-in through Auth.js's credentials callback, as the sign-in form does.

/** The app and Auth.js as seen from the browser: a base URL and the fetch to reach it (tests pass an in-process one). */
export interface BrowserOptions {
  base: string;
  fetch?: typeof fetch;
  /** sent as X-Forwarded-For: the sign-in limit counts tries per address, and simulated browsers are different clients */
  address?: string;
  /** per request (ms), unless the request brings its own signal */
  timeoutMs?: number;
}

export class LoadBrowser {
  readonly jar = new Map<string, string>();
  readonly #o: Required<Omit<BrowserOptions, "address">> & { address?: string };

  constructor(o: BrowserOptions) {
    this.#o = { fetch: globalThis.fetch, timeoutMs: 60_000, ...o };
  }

  /** Keeps the cookies of a response; an empty value or Max-Age=0 deletes one. */
  keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const at = pair.indexOf("=");
      if (at <= 0) continue;
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (!value || attrs.some((a) => /^\s*max-age=0\s*$/i.test(a))) this.jar.delete(name);
      else this.jar.set(name, value);
    }
  }

  async fetch(p: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.jar.size) headers.set("cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    if (this.#o.address) headers.set("x-forwarded-for", this.#o.address);
    const signal = init.signal ?? AbortSignal.timeout(this.#o.timeoutMs);
    const res = await this.#o.fetch(`${this.#o.base}${p}`, { redirect: "manual", ...init, headers, signal });
    this.keep(res);
    return res;
  }

  /** True once Auth.js has set its session cookie (named authjs.session-token, with a __Secure- prefix behind https). */
  get signedIn(): boolean {
    return [...this.jar.keys()].some((k) => k.endsWith("authjs.session-token"));
  }

  /** Signs in with the shared password; throws saying why when the server refuses (wrong password, rate limit, off). */
  async signIn(password: string): Promise<void> {
    const csrf = await this.fetch("/api/auth/csrf");
    if (!csrf.ok) throw new Error(`sign-in: GET /api/auth/csrf answered ${csrf.status}${csrf.status === 404 ? " (sign-in is off on the server: AUTH_PASSWORD unset)" : ""}`);
    const { csrfToken } = (await csrf.json()) as { csrfToken?: string };
    if (!csrfToken) throw new Error("sign-in: no csrfToken from /api/auth/csrf");
    const res = await this.fetch("/api/auth/callback/credentials", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, password, callbackUrl: `${this.#o.base}/` }).toString(),
    });
    await res.body?.cancel();
    if (res.status === 429) throw new Error(`sign-in: rate limited (retry after ${res.headers.get("retry-after")} s)`);
    if (!this.signedIn) throw new Error(`sign-in: refused (${res.status}${res.headers.get("location")?.includes("error=") ? ", wrong password" : ""})`);
  }
}
