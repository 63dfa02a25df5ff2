// The Chatty-KG MCP server: the KG tools, ask_kg, a schema-summary resource per KG and the derivation resource.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerAskTool } from "./ask-tool";
import type { McpContext } from "./context";
import { registerKgTools } from "./kg-tools";
import { schemaSummary } from "./schema";

export const MCP_SERVER_NAME = "chatty-kg";
export const SCHEMA_URI = (kgId: string) => `chatty-kg://kg/${encodeURIComponent(kgId)}/schema`;

const INSTRUCTIONS =
  "Chatty-KG answers questions from RDF knowledge graphs. Call list_kgs first. To answer a question, call ask_kg; to explore yourself, " +
  "read describe_schema, find IRIs with search_entities, inspect them with describe_entity and test queries with run_sparql (read-only).";

/** One server for one caller (its session decides which KGs and conversations it sees). */
export function createChattyMcpServer(ctx: McpContext, version = "0.1.0"): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { instructions: INSTRUCTIONS, capabilities: { logging: {} } });
  registerKgTools(server, ctx);
  registerAskTool(server, ctx);
  server.registerResource(
    "kg-schema",
    new ResourceTemplate("chatty-kg://kg/{kg}/schema", {
      list: async () => ({
        resources: (await ctx.registry.list(ctx.sessionId)).map((k) => ({ uri: SCHEMA_URI(k.id), name: `${k.name}: schema summary`, mimeType: "text/plain" })),
      }),
    }),
    { title: "Schema summary of a KG", description: "Frequent classes and predicates with labels, counts and example triples.", mimeType: "text/plain" },
    async (uri, { kg }) => {
      const schema = await schemaSummary(await ctx.registry.getKg(ctx.sessionId, decodeURIComponent(String(kg))));
      return { contents: [{ uri: uri.href, mimeType: "text/plain", text: schema.text }] };
    },
  );
  return server;
}
