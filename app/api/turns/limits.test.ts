// The LLM routes' guards end to end on the route handlers: rate limits (429 + Retry-After, nothing saved) and the
// LLM base URL allow-list (403 naming LLM_ALLOWED_BASE_URLS, nothing saved).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

let jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));

let tmp: TempDb;
let postTurn: (r: Request) => Promise<Response>;
let postRetry: (r: Request, c: { params: Promise<{ id: string }> }) => Promise<Response>;
let actions: typeof import("@/app/(chat)/actions");

beforeAll(async () => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2030-01-01T00:00:00Z"));
  tmp = await createTempDb();
  process.env.DATABASE_URL = tmp.url;
  process.env.SESSION_SECRET = "limits-test-secret-0123456789abcdef";
  process.env.RATE_LIMIT_SESSION_PER_MINUTE = "2";
  process.env.RATE_LIMIT_GLOBAL_PER_MINUTE = "4";
  for (const k of ["OPENAI_API_KEY", "GOOGLE_GENERATIVE_AI_API_KEY", "LLM_BASE_URL", "LLM_PROVIDER", "LLM_API_KEY", "LLM_MODEL", "LLM_ALLOWED_BASE_URLS"]) delete process.env[k];
  ({ POST: postTurn } = await import("./route"));
  ({ POST: postRetry } = await import("./[id]/retry/route"));
  actions = await import("@/app/(chat)/actions");
});
afterAll(async () => {
  vi.useRealTimers();
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await tmp.close();
});

const ask = (body: Record<string, unknown> = {}) =>
  postTurn(new Request("http://localhost/api/turns", { method: "POST", body: JSON.stringify({ question: "Who wrote Harry Potter?", kgId: "sample", ...body }) }));

async function turnCount(): Promise<number> {
  const listed = await actions.listConversations();
  if (!listed.ok) throw new Error(listed.error.message);
  return listed.data.reduce((n, c) => n + c.turnCount, 0);
}

describe("LLM routes", () => {
  it("refuse a base URL off LLM_ALLOWED_BASE_URLS with a 403 naming the variable, before anything is saved", async () => {
    jar = new Map();
    const res = await ask({ llm: { provider: "openai-compatible", model: "m", baseURL: "http://attacker.example/v1" } });
    expect(res.status).toBe(403);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("url_forbidden");
    expect(error.message).toContain("LLM_ALLOWED_BASE_URLS");
    expect(await turnCount()).toBe(0);
    // Ollama on loopback is allowed by default: the turn is saved (and fails later, as nothing listens there in this test)
    const ok = await ask({ llm: { provider: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:11434/v1" } });
    expect(ok.status).toBe(200);
    await ok.text();
    expect(await turnCount()).toBe(1);
  });

  it("answer 429 with Retry-After past the session limit, count retries too, and save nothing refused", async () => {
    jar = new Map();
    vi.setSystemTime(new Date("2030-01-01T01:00:00Z"));
    const first = await ask();
    expect(first.status).toBe(200);
    const turnId = (await first.text()).match(/"turnId":"([^"]+)"/)![1];
    // the retry of the (failed, no LLM) turn is the second run this minute
    const retry = await postRetry(new Request(`http://localhost/api/turns/${turnId}/retry`, { method: "POST", headers: { "content-length": "0" } }), {
      params: Promise.resolve({ id: turnId }),
    });
    expect(retry.status).toBe(200);
    await retry.text();
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toBe("30");
    const { error } = (await refused.json()) as { error: { code: string; message: string } };
    expect(error).toMatchObject({ code: "rate_limited" });
    expect(error.message).toMatch(/Too many questions from this browser.*RATE_LIMIT_SESSION_PER_MINUTE.*30 s/);
    expect(await turnCount()).toBe(1);
    vi.setSystemTime(new Date("2030-01-01T01:00:30Z"));
    const later = await ask();
    expect(later.status).toBe(200);
    await later.text();
  });

  it("answer 429 for everyone once the global limit is reached", async () => {
    vi.setSystemTime(new Date("2030-01-01T02:00:00Z"));
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      jar = new Map(); // a new browser each time: only the global limit applies
      const res = await ask();
      statuses.push(res.status);
      if (res.status === 429) expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/RATE_LIMIT_GLOBAL_PER_MINUTE/);
      else await res.text();
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
  });
});
