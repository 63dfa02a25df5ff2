// Secrets never reach the client or the logs: with recognisable LLM keys in env and a provider that echoes the key in
// its 401 body, every response body and header and everything written to console.* is scanned for the keys; endpoint
// credentials (user:pass@ in the URL) are used but never echoed.
import http from "node:http";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { KgListResponse } from "@/lib/api/contract";
import { startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

// deliberately not shaped like sk-…: only the exact-value redaction can catch these
const LLM_KEY = "ckgtest-LLMKEY-5b8e2f1d9a7c";
const OPENAI_KEY = "ckgtest-OPENAIKEY-93af01c2e7";
const ENDPOINT_PASS = "s3cr3t-endpoint-pass-77";
const ENDPOINT_BASIC = Buffer.from(`alice:${ENDPOINT_PASS}`).toString("base64");
const SECRETS = [LLM_KEY, OPENAI_KEY, ENDPOINT_PASS, ENDPOINT_BASIC];

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));
// lets one test make the entity route throw an unexpected error that quotes the keys (a library bug, say)
const entityFault = vi.hoisted(() => ({ throwNext: false }));
vi.mock("@/lib/server/entity", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/server/entity")>();
  return {
    ...real,
    describeEntity: (...args: Parameters<typeof real.describeEntity>) => {
      if (entityFault.throwNext) {
        entityFault.throwNext = false;
        throw new Error(`socket hang up talking to https://alice:${ENDPOINT_PASS}@kg.example/sparql with key ${LLM_KEY}`, {
          cause: new Error(`upstream said: Authorization: Bearer ${OPENAI_KEY}`),
        });
      }
      return real.describeEntity(...args);
    },
  };
});

let tmp: TempDb;
let llm: MockOpenAIServer;
let sparqlServer: http.Server;
let sparqlPort = 0;
const endpointAuth: (string | undefined)[] = [];
const logs: string[] = [];
/** every response the routes produced: status line, headers and body, as text */
const seen: string[] = [];

async function record(res: Response): Promise<string> {
  const body = await res.text();
  seen.push(`${res.status}\n${JSON.stringify([...res.headers.entries()])}\n${body}`);
  return body;
}

function expectNoSecret(text: string, where: string): void {
  for (const s of SECRETS) expect(text.includes(s), `${where} contains a secret (${s.slice(0, 12)}…)`).toBe(false);
}

beforeAll(async () => {
  tmp = await createTempDb();
  // the provider "echoes" the key it was sent, as some gateways do in their 401 bodies
  llm = await startMockOpenAIServer({
    responder: () => ({ status: 401, body: { error: { message: `Incorrect API key provided: ${LLM_KEY}. Authorization: Bearer ${LLM_KEY}`, type: "invalid_request_error" } } }),
  });
  // a SPARQL endpoint that wants Basic auth and echoes the Authorization header when it is wrong
  sparqlServer = http.createServer((req, res) => {
    endpointAuth.push(req.headers.authorization);
    if (req.headers.authorization !== `Basic ${ENDPOINT_BASIC}`) {
      res.writeHead(401, { "content-type": "text/plain" });
      return res.end(`Unauthorized: got ${req.headers.authorization} for ${req.url}`);
    }
    res.writeHead(200, { "content-type": "application/sparql-results+json" });
    res.end(JSON.stringify({ head: {}, boolean: true }));
  });
  await new Promise<void>((r) => sparqlServer.listen(0, "127.0.0.1", () => r()));
  sparqlPort = (sparqlServer.address() as { port: number }).port;

  Object.assign(process.env, {
    DATABASE_URL: tmp.url,
    SESSION_SECRET: "secrets-test-session-secret-0123456789",
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: llm.baseURL,
    LLM_MODEL: "mock-model",
    LLM_API_KEY: LLM_KEY,
    OPENAI_API_KEY: OPENAI_KEY,
    LLM_TIMEOUT_MS: "5000",
    // the test endpoint is on 127.0.0.1, which user-added endpoints may not use by default (SSRF policy)
    KG_ALLOW_PRIVATE_ENDPOINTS: "true",
  });
  delete process.env.GOOGLE_GENERATIVE_AI_API_KEY;
  for (const m of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    vi.spyOn(console, m).mockImplementation((...args: unknown[]) => void logs.push(args.map((a) => (typeof a === "string" ? a : inspect(a, { depth: 10 }))).join(" ")));
  }
});

afterAll(async () => {
  vi.restoreAllMocks();
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await llm.close();
  await new Promise<void>((r) => sparqlServer.close(() => r()));
  await tmp.close();
  for (const k of ["LLM_PROVIDER", "LLM_BASE_URL", "LLM_MODEL", "LLM_API_KEY", "OPENAI_API_KEY", "LLM_TIMEOUT_MS", "KG_ALLOW_PRIVATE_ENDPOINTS"]) delete process.env[k];
});

describe("LLM keys never reach responses or logs", () => {
  let conversationId = "";

  it("a turn whose provider rejects the key (echoing it) fails with llm_auth, and the stream holds no key", async () => {
    const { POST } = await import("@/app/api/turns/route");
    const body = await record(await POST(new Request("http://localhost/api/turns", { method: "POST", body: JSON.stringify({ question: "Who wrote Harry Potter?", kgId: "sample" }) })));
    // the provider really was called with the key (so the echo really contained it) …
    expect(llm.requests.length).toBeGreaterThan(0);
    expect(llm.requests[0].headers.authorization).toBe(`Bearer ${LLM_KEY}`);
    // … and the user still learns what went wrong
    expect(body).toContain("llm_auth");
    expect(body).toContain("[redacted]");
    expectNoSecret(body, "turn stream");
    conversationId = body.split("\n").filter((l) => l.startsWith("data: {")).map((l) => JSON.parse(l.slice(6))).find((p) => p.type === "data-turn").data.conversationId;
  });

  it("the stored turn (trace, error) read back by action and export holds no key", async () => {
    const actions = await import("@/app/(chat)/actions");
    const got = await actions.getConversation({ conversationId });
    expect(got.ok).toBe(true);
    const dto = JSON.stringify(got);
    expect(dto).toContain("llm_auth");
    seen.push(dto);
    const { GET } = await import("@/app/api/conversations/[id]/export/route");
    for (const format of ["md", "json"]) {
      const res = await GET(new Request(`http://localhost/api/conversations/${conversationId}/export?format=${format}`), { params: Promise.resolve({ id: conversationId }) });
      expect(res.status).toBe(200);
      await record(res);
    }
  });

  it("GET /api/kg, GET /api/entity and GET /api/health hold no key", async () => {
    const kg = await import("@/app/api/kg/route");
    expect((await kg.GET()).status).toBe(200);
    await record(await kg.GET());
    const entity = await import("@/app/api/entity/route");
    const e = await entity.GET(new Request(`http://localhost/api/entity?kgId=sample&iri=${encodeURIComponent("http://example.org/nothing")}`));
    expect(e.status).toBe(200);
    await record(e);
    const health = await import("@/app/api/health/route");
    await record(health.GET());
  });

  it("an unexpected error quoting keys and credentials is a 500 with them redacted, and logged redacted", async () => {
    const entity = await import("@/app/api/entity/route");
    entityFault.throwNext = true;
    const before = logs.length;
    const res = await entity.GET(new Request(`http://localhost/api/entity?kgId=sample&iri=${encodeURIComponent("http://example.org/x")}`));
    expect(res.status).toBe(500);
    const body = await record(res);
    expect(body).toContain("socket hang up");
    expect(body).toContain("[redacted]");
    // it was logged (with its cause), only without the secrets
    const logged = logs.slice(before).join("\n");
    expect(logged).toContain("socket hang up");
    expect(logged).toContain("upstream said");
  });

  it("endpoint credentials are sent as Basic auth but never echoed; GET /api/kg shows the URL without them", async () => {
    const { POST } = await import("@/app/api/kg/endpoint/route");
    const url = `http://alice:${ENDPOINT_PASS}@127.0.0.1:${sparqlPort}/sparql`;
    const res = await POST(new Request("http://localhost/api/kg/endpoint", { method: "POST", body: JSON.stringify({ url, name: "Private endpoint" }) }));
    const body = await record(res);
    expect(res.status, body).toBe(201);
    expect(endpointAuth.at(-1)).toBe(`Basic ${ENDPOINT_BASIC}`);
    const kg = await import("@/app/api/kg/route");
    const listed = JSON.parse(await record(await kg.GET())) as KgListResponse;
    const item = listed.kgs.find((k) => k.name === "Private endpoint");
    expect(item?.url).toBe(`http://127.0.0.1:${sparqlPort}/sparql`);
    expect(JSON.stringify(listed)).not.toContain("alice");
  });

  it("a wrong endpoint password is refused without the answer's echo of the credentials reaching the client", async () => {
    const { POST } = await import("@/app/api/kg/endpoint/route");
    const wrong = `http://alice:${ENDPOINT_PASS}-wrong@127.0.0.1:${sparqlPort}/sparql`;
    const res = await POST(new Request("http://localhost/api/kg/endpoint", { method: "POST", body: JSON.stringify({ url: wrong }) }));
    const body = await record(res);
    expect(res.status).toBe(502);
    expect(body).toContain("401");
    expectNoSecret(body, "endpoint probe error");
    expect(body).not.toContain(Buffer.from(`alice:${ENDPOINT_PASS}-wrong`).toString("base64"));
  });

  it("no response body or header, and nothing written to console.*, contains a key or credential", () => {
    expect(seen.length).toBeGreaterThanOrEqual(10);
    seen.forEach((s, i) => expectNoSecret(s, `response #${i}`));
    expect(logs.length).toBeGreaterThan(0);
    logs.forEach((l, i) => expectNoSecret(l, `console line #${i}`));
  });
});
