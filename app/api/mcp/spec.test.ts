// /api/mcp against the MCP 2025-11-25 specification, one test per deviation found with the MCP Inspector and the SDK's
// client (issue 31), driven by the SDK's own client with the route handlers in this process. Sign-in is off here and no
// cookie is ever sent: what a session needs must ride on Mcp-Session-Id.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

// no cookie comes in, and one set is never sent back (an MCP client keeps none)
vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false, set: () => {}, delete: () => {} }),
  headers: async () => new Headers(),
}));

const TOKEN = "mcp-spec-test-token-0123456789";
const ORIGIN = "http://127.0.0.1:5210";
let tmp: TempDb;
let llm: MockOpenAIServer;
let route: typeof import("./route");

beforeAll(async () => {
  tmp = await createTempDb();
  llm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/e2e/figure1-rules.json")) });
  delete process.env.AUTH_PASSWORD;
  delete process.env.APP_URL;
  Object.assign(process.env, {
    DATABASE_URL: tmp.url,
    SESSION_SECRET: "mcp-spec-test-session-secret-0123456789",
    MCP_TOKEN: TOKEN,
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: llm.baseURL,
    LLM_MODEL: "mock",
    EMBEDDING_KIND: "lexical",
  });
  route = await import("./route");
});
afterAll(async () => {
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await llm?.close();
  await tmp?.close();
});

const dispatch = (req: Request) => (req.method === "POST" ? route.POST(req) : req.method === "DELETE" ? route.DELETE(req) : route.GET(req));

/**
 * The SDK's client over streamable HTTP to the route in this process; `seen` collects every HTTP exchange. Each request
 * reaches the route as Next hands it over: its URL names the server's own host (localhost:3000), the Host header the
 * one the client used.
 */
async function connect(options: { token?: string; seen?: { method: string; status: number; session: string | null }[] } = {}): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${ORIGIN}/api/mcp`), {
    requestInit: options.token ? { headers: { authorization: `Bearer ${options.token}` } } : undefined,
    fetch: async (url, init) => {
      const asked = new URL(String(url));
      const headers = new Headers(init?.headers);
      headers.set("host", asked.host);
      const req = new Request(`http://localhost:3000${asked.pathname}`, { ...init, headers });
      const res = await dispatch(req);
      options.seen?.push({ method: req.method, status: res.status, session: req.headers.get("mcp-session-id") });
      return res;
    },
  });
  const client = new Client({ name: "chatty-kg-spec-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;
const rpcError = async (p: Promise<unknown>) => {
  const e = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(McpError);
  return e as McpError;
};

describe("MCP streamable HTTP per the 2025-11-25 specification", () => {
  it("GET and DELETE answer 405 with Allow: POST and a JSON-RPC error body; the SDK's client works with that", async () => {
    for (const method of ["GET", "DELETE"]) {
      const res = await dispatch(new Request(`${ORIGIN}/api/mcp`, { method, headers: { accept: "text/event-stream" } }));
      expect(res.status, method).toBe(405);
      expect(res.headers.get("allow")).toBe("POST");
      const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
      expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
      expect(body.error.message).toMatch(/^Method not allowed/);
    }
    const seen: { method: string; status: number; session: string | null }[] = [];
    const client = await connect({ seen });
    await client.listTools();
    await (client.transport as StreamableHTTPClientTransport).terminateSession();
    await client.close();
    // the client tried the optional event stream and the session end, took the 405s, and carried on
    expect(seen.filter((s) => s.method === "GET").map((s) => s.status)).toEqual([405]);
    expect(seen.filter((s) => s.method === "DELETE").map((s) => s.status)).toEqual([405]);
  });

  it("a wrong token gets 401 with WWW-Authenticate: Bearer and a JSON-RPC error body", async () => {
    const res = await dispatch(
      new Request(`${ORIGIN}/api/mcp`, {
        method: "POST",
        headers: { authorization: "Bearer not-the-token", "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
      }),
    );
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer realm="chatty-kg", error="invalid_token"$/);
    const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/^Unauthorized: The bearer token was refused/);
    await expect(connect({ token: "not-the-token" })).rejects.toThrow();
  });

  it("without cookies, the Mcp-Session-Id from initialize keeps one session: ask_kg's derivation reads back; another client's session cannot read it", async () => {
    const seen: { method: string; status: number; session: string | null }[] = [];
    const client = await connect({ seen });
    const other = await connect();
    try {
      const r = await client.callTool({ name: "ask_kg", arguments: { question: "Who is the author of Harry Potter?", kg: "sample" } });
      expect(r.isError, text(r)).toBeFalsy();
      const link = (r.content as { type: string; uri?: string }[]).find((c) => c.type === "resource_link")!;
      const read = await client.readResource({ uri: link.uri! });
      expect(JSON.parse((read.contents[0] as { text: string }).text)).toMatchObject({ question: "Who is the author of Harry Potter?", status: "done" });
      // every request after initialize carried the session id the server issued
      const ids = new Set(seen.filter((s) => s.method === "POST").slice(1).map((s) => s.session));
      expect(ids.size).toBe(1);
      expect([...ids][0]).toMatch(/^mcp1\./);
      // the other client has its own session: the turn is not there for it
      expect((await rpcError(other.readResource({ uri: link.uri! }))).code).toBe(-32002);
    } finally {
      await client.close();
      await other.close();
    }
  }, 120_000);

  it("a forged or unknown Mcp-Session-Id is 404 (the client must initialize again)", async () => {
    const res = await dispatch(
      new Request(`${ORIGIN}/api/mcp`, {
        method: "POST",
        headers: { "mcp-session-id": "mcp1.AAAAAAAAAAAA.aaaaaaaaaaaaaaaaaaaa.forged", "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" }),
      }),
    );
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: number } }).error.code).toBe(-32001);
  });

  it("reading a resource that does not exist is JSON-RPC error -32002", async () => {
    const client = await connect();
    try {
      for (const uri of ["chatty-kg://turns/no-such-turn/derivation", "chatty-kg://kg/no-such-kg/schema", "chatty-kg://nothing/here", "https://example.org/x"]) {
        const e = await rpcError(client.readResource({ uri }));
        expect(e.code, uri).toBe(-32002);
        expect(e.message, uri).toMatch(/Resource not found/);
      }
    } finally {
      await client.close();
    }
  });

  it("every tool declares an outputSchema, and its structured content fits it (the SDK's client checks each call)", async () => {
    const client = await connect({ token: TOKEN });
    try {
      const { tools } = await client.listTools();
      for (const t of tools) expect(t.outputSchema?.type, t.name).toBe("object");
      const calls: [string, Record<string, unknown>][] = [
        ["list_kgs", {}],
        ["run_sparql", { kg: "sample", query: "SELECT ?s WHERE { ?s a ?c } LIMIT 3" }],
        ["search_entities", { kg: "sample", text: "Harry Potter" }],
        ["describe_schema", { kg: "sample" }],
        ["describe_entity", { kg: "sample", iri: "http://example.org/chatty-kg/resource/J_K_Rowling" }],
      ];
      for (const [name, args] of calls) {
        const r = await client.callTool({ name, arguments: args });
        expect(r.isError, `${name}: ${text(r)}`).toBeFalsy();
        expect(r.structuredContent, name).toBeTypeOf("object");
      }
      // a failed call is text only, so it need not fit the success schema
      const refused = await client.callTool({ name: "run_sparql", arguments: { kg: "sample", query: "DELETE WHERE { ?s ?p ?o }" } });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toBeUndefined();
      expect(text(refused)).toMatch(/^error \[sparql_forbidden\]: /);
    } finally {
      await client.close();
    }
  });

  it("argument errors come back as `error [bad_request]: …` naming each bad argument; an unknown tool is a protocol error", async () => {
    const client = await connect({ token: TOKEN });
    try {
      const missing = await client.callTool({ name: "ask_kg", arguments: { kg: "sample" } });
      expect(missing.isError).toBe(true);
      expect(text(missing)).toBe("error [bad_request]: Invalid arguments for ask_kg: question: required, missing.");
      const wrong = await client.callTool({ name: "run_sparql", arguments: { kg: "sample", query: 42 } });
      expect(text(wrong)).toMatch(/^error \[bad_request\]: Invalid arguments for run_sparql: query: expected string/);
      const e = await rpcError(client.callTool({ name: "no_such_tool", arguments: {} }));
      expect(e.code).toBe(-32602);
      expect(e.message).toMatch(/Unknown tool: no_such_tool/);
    } finally {
      await client.close();
    }
  });

  it("links name the origin the request came to (127.0.0.1, not localhost)", async () => {
    const client = await connect({ token: TOKEN });
    try {
      const r = await client.callTool({ name: "ask_kg", arguments: { question: "Who is the author of Harry Potter?", kg: "sample" } });
      expect((r.structuredContent as { page: string }).page).toMatch(new RegExp(`^${ORIGIN.replace(/[.:/]/g, "\\$&")}/c/[\\w-]+$`));
    } finally {
      await client.close();
    }
  }, 120_000);

  it("APP_URL, when set, is the origin of links; behind a proxy, X-Forwarded-Host and -Proto are", async () => {
    const { appUrlOf } = await import("@/lib/mcp/http");
    const req = new Request("http://localhost:3000/api/mcp", { headers: { host: "127.0.0.1:3000", "x-forwarded-host": "kgqa.example.org", "x-forwarded-proto": "https" } });
    expect(appUrlOf(req, {})).toBe("https://kgqa.example.org");
    expect(appUrlOf(req, { APP_URL: "https://app.example.org/" })).toBe("https://app.example.org");
    expect(appUrlOf(new Request("http://localhost:3000/api/mcp", { headers: { host: "127.0.0.1:3000" } }), {})).toBe("http://127.0.0.1:3000");
  });
});
