// `npm run mcp` as an MCP host starts it: the stdio server in its own process, driven by the MCP SDK's client. Every
// tool is called; ask_kg answers through the mock LLM server; run_sparql refuses an update with its stable code.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

let tmp: TempDb;
let llm: MockOpenAIServer;
let client: Client;
let stderr = "";

beforeAll(async () => {
  tmp = await createTempDb();
  llm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/e2e/figure1-rules.json")) });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !/^(LLM_|OPENAI_|GOOGLE_|KG_DEFAULT|AUTH_)/.test(k)) env[k] = v;
  const transport = new StdioClientTransport({
    command: "npx",
    args: ["tsx", "--conditions=react-server", "scripts/mcp.ts"],
    cwd: process.cwd(),
    stderr: "pipe",
    env: { ...env, DATABASE_URL: tmp.url, LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: llm.baseURL, LLM_MODEL: "mock", EMBEDDING_KIND: "lexical", SESSION_SECRET: "stdio-test-secret-0123456789abcdef", APP_URL: "http://127.0.0.1:3000" },
  });
  transport.stderr?.on("data", (d) => (stderr += String(d)));
  client = new Client({ name: "chatty-kg-stdio-test", version: "1.0.0" });
  await client.connect(transport);
}, 120_000);
afterAll(async () => {
  await client?.close();
  await llm?.close();
  await tmp?.close();
});

const text = (r: unknown) => ((r as CallToolResult).content[0] as { text: string }).text;

describe("MCP over stdio (npm run mcp)", () => {
  it("lists the tools and calls each of them", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(["ask_kg", "describe_entity", "describe_schema", "list_kgs", "run_sparql", "search_entities"]);
    for (const t of tools) expect(t.description?.length, t.name).toBeGreaterThan(40);

    expect(text(await client.callTool({ name: "list_kgs", arguments: {} }))).toMatch(/^- sample: Sample KG/);
    const refused = await client.callTool({ name: "run_sparql", arguments: { kg: "sample", query: "INSERT DATA { <http://x/a> <http://x/b> <http://x/c> }" } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^error \[sparql_forbidden\]: /);
    const count = await client.callTool({ name: "run_sparql", arguments: { kg: "sample", query: "SELECT ?film WHERE { ?film a <http://example.org/chatty-kg/ontology/Film> }" } });
    expect(text(count)).toMatch(/^\d+ rows?/);
    expect(text(await client.callTool({ name: "search_entities", arguments: { kg: "sample", text: "Hermione" } }))).toMatch(/Hermione/);
    expect(text(await client.callTool({ name: "describe_schema", arguments: { kg: "sample" } }))).toMatch(/Classes/);
    expect(text(await client.callTool({ name: "describe_entity", arguments: { kg: "sample", iri: "http://example.org/chatty-kg/resource/J_K_Rowling" } }))).toMatch(/^J\. K\. Rowling/);

    const answer = await client.callTool({ name: "ask_kg", arguments: { question: "Who is the author of Harry Potter?", kg: "sample" } });
    expect(answer.isError, text(answer)).toBeFalsy();
    expect(text(answer)).toMatch(/^Answer: 1 item: J\. K\. Rowling/);
    expect(text(answer)).toMatch(/in the app of this session: http:\/\/127\.0\.0\.1:3000\/c\/[\w-]+\)/);
    // nothing but the protocol went to stdout (a stray line there would have broken the client above); logs to stderr
    expect(stderr).toContain("chatty-kg MCP server on stdio");
  }, 180_000);
});
