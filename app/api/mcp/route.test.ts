// /api/mcp: the MCP server over streamable HTTP, with the MCP SDK's own client: sign-in enforced (a client without
// the token is refused), then every tool called, ask_kg answering the Figure-1 dialogue's first question on the sample
// KG through the mock LLM server with progress notifications, and run_sparql refusing an update with its stable code.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false, set: () => {}, delete: () => {} }),
  headers: async () => new Headers({ host: "localhost:3000", "x-forwarded-proto": "http" }),
}));

const TOKEN = "mcp-test-token-0123456789";
const STONE = "http://example.org/chatty-kg/resource/Harry_Potter";
let tmp: TempDb;
let llm: MockOpenAIServer;
let route: typeof import("./route");

beforeAll(async () => {
  tmp = await createTempDb();
  llm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/e2e/figure1-rules.json")) });
  Object.assign(process.env, {
    DATABASE_URL: tmp.url,
    SESSION_SECRET: "mcp-http-test-session-secret-0123456789",
    AUTH_PASSWORD: "a shared password",
    AUTH_SECRET: "mcp-http-test-auth-secret-0123456789abcdef",
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

/** A client whose HTTP requests go to the route handler in this process, with or without the bearer token. */
async function connect(token?: string): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL("http://localhost:3000/api/mcp"), {
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
    fetch: async (url, init) => {
      const req = new Request(url, init);
      return req.method === "POST" ? route.POST(req) : req.method === "DELETE" ? route.DELETE(req) : route.GET(req);
    },
  });
  const client = new Client({ name: "chatty-kg-test", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe("MCP over streamable HTTP", () => {
  it("refuses a client that is neither signed in nor holds MCP_TOKEN, and one with a wrong token", async () => {
    await expect(connect()).rejects.toThrow(/401|Sign in/);
    await expect(connect("wrong-token")).rejects.toThrow(/401|refused/);
  });

  it("lists the six tools and the schema resource of the sample KG", async () => {
    const client = await connect(TOKEN);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(["ask_kg", "describe_entity", "describe_schema", "list_kgs", "run_sparql", "search_entities"]);
      const ask = tools.find((t) => t.name === "ask_kg")!;
      expect(ask.inputSchema.required).toEqual(["question", "kg"]);
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toContain("chatty-kg://kg/sample/schema");
      const schema = await client.readResource({ uri: "chatty-kg://kg/sample/schema" });
      expect((schema.contents[0] as { text: string }).text).toMatch(/Classes \(most frequent first/);
    } finally {
      await client.close();
    }
  });

  it("answers each read tool on the sample KG, and run_sparql refuses an update with sparql_forbidden", async () => {
    const client = await connect(TOKEN);
    try {
      expect(text(await client.callTool({ name: "list_kgs", arguments: {} }))).toMatch(/^- sample: .*; default strategy [a-z-]+, because it (is the documented default|has the best macro F1)/);
      const rows = await client.callTool({ name: "run_sparql", arguments: { kg: "sample", query: `SELECT ?a WHERE { <${STONE}> <http://example.org/chatty-kg/ontology/author> ?a }` } });
      expect(rows.isError).toBeFalsy();
      expect(text(rows)).toMatch(/^1 row,[\s\S]*J_K_Rowling> \(J\. K\. Rowling\)/);
      const update = await client.callTool({ name: "run_sparql", arguments: { kg: "sample", query: "DELETE WHERE { ?s ?p ?o }" } });
      expect(update.isError).toBe(true);
      expect(text(update)).toMatch(/^error \[sparql_forbidden\]/);
      const found = await client.callTool({ name: "search_entities", arguments: { kg: "sample", text: "Daniel Radcliffe" } });
      expect(text(found)).toContain("Daniel_Radcliffe>");
      const actors = await client.callTool({ name: "search_entities", arguments: { kg: "sample", text: "Daniel Radcliffe", class: "http://example.org/chatty-kg/ontology/Actor" } });
      // the same-named engineer is found by name, and left out once the class is asked for
      const iris = (r: unknown) => ((r as CallToolResult).structuredContent as { hits: { iri: string }[] }).hits.map((h) => h.iri.replace(/^.*\//, ""));
      expect(iris(found)).toEqual(expect.arrayContaining(["Daniel_Radcliffe", "Daniel_Radcliffe_engineer"]));
      expect(iris(actors)).toContain("Daniel_Radcliffe");
      expect(iris(actors)).not.toContain("Daniel_Radcliffe_engineer");
      expect(text(await client.callTool({ name: "describe_schema", arguments: { kg: "sample" } }))).toMatch(/Predicates/);
      const entity = await client.callTool({ name: "describe_entity", arguments: { kg: "sample", iri: STONE } });
      expect(text(entity)).toMatch(/author <http:\/\/example\.org\/chatty-kg\/ontology\/author> → <[^>]*J_K_Rowling>/);
      const unknown = await client.callTool({ name: "describe_schema", arguments: { kg: "no-such-kg" } });
      expect(text(unknown)).toMatch(/^error \[not_found\]/);
    } finally {
      await client.close();
    }
  });

  it("ask_kg answers the Figure-1 dialogue's first question on the sample KG, reports progress, and links the derivation", async () => {
    const client = await connect(TOKEN);
    try {
      const progress: string[] = [];
      // Chatty-KG named: without a strategy ask_kg takes the KG's default (lib/server/default-strategy.ts)
      const r = await client.callTool({ name: "ask_kg", arguments: { question: "Who is the author of Harry Potter?", kg: "sample", strategy: "chatty-kg" } }, undefined, {
        onprogress: (p) => void progress.push(p.message ?? ""),
      });
      expect(r.isError).toBeFalsy();
      expect(text(r)).toMatch(/^Answer: 1 item: J\. K\. Rowling/);
      expect(text(r)).toMatch(/SPARQL:\n[\s\S]*Harry_Potter/);
      expect(progress.some((m) => m.startsWith("execution:"))).toBe(true);
      const link = (r.content as { type: string; uri?: string }[]).find((c) => c.type === "resource_link")!;
      const derivation = JSON.parse(((await client.readResource({ uri: link.uri! })).contents[0] as { text: string }).text) as { question: string; steps: { step: string; query?: string }[] };
      expect(derivation.question).toBe("Who is the author of Harry Potter?");
      expect(derivation.steps.some((s) => s.step === "execution" && s.query?.includes("Harry_Potter"))).toBe(true);
    } finally {
      await client.close();
    }
  }, 120_000);
});
