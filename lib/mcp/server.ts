// The Chatty-KG MCP server: the KG tools, ask_kg, a schema-summary resource per KG and the derivation resource.
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { registerAskTool } from "./ask-tool";
import type { McpContext } from "./context";
import { registerKgTools } from "./kg-tools";
import { conformToSpec } from "./protocol";
import { examplesText, profileText } from "./profile-text";
import { schemaSummary } from "./schema";

export const MCP_SERVER_NAME = "chatty-kg";
export const SCHEMA_URI = (kgId: string) => `chatty-kg://kg/${encodeURIComponent(kgId)}/schema`;
export const OVERVIEW_URI = (kgId: string) => `chatty-kg://kg/${encodeURIComponent(kgId)}/overview`;
export const EXAMPLES_URI = (kgId: string) => `chatty-kg://kg/${encodeURIComponent(kgId)}/examples`;
/** Examples the examples resource lists (the onboarding keeps up to a few hundred per KG). */
const RESOURCE_EXAMPLES = 100;

const INSTRUCTIONS =
  "Chatty-KG answers questions from RDF knowledge graphs. Call list_kgs first. To answer a question, call ask_kg; to explore yourself, " +
  "read describe_schema, find IRIs with search_entities, inspect them with describe_entity and test queries with run_sparql (read-only).";

/** One server for one caller (its session decides which KGs and conversations it sees). */
export function createChattyMcpServer(ctx: McpContext, version = "0.1.0"): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { instructions: INSTRUCTIONS, capabilities: { logging: {} } });
  // tools/call and resources/read answered as the specification says (lib/mcp/protocol.ts), once all are registered
  const spec = conformToSpec(server);
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
  const onboarding = ctx.onboarding;
  if (onboarding) {
    /** The KG id of a resource URI, after checking this caller may use it (a foreign id reads as not found). */
    const kgOf = async (kg: string | string[]) => {
      const id = decodeURIComponent(String(kg));
      await ctx.registry.access(ctx.sessionId, id);
      return id;
    };
    server.registerResource(
      "kg-overview",
      new ResourceTemplate("chatty-kg://kg/{kg}/overview", {
        list: async () => ({
          resources: (await ctx.registry.list(ctx.sessionId)).map((k) => ({ uri: OVERVIEW_URI(k.id), name: `${k.name}: overview`, mimeType: "text/plain" })),
        }),
      }),
      {
        title: "Overview of a KG",
        description: "The KG's profile from its preparation: classes, predicates with value types and examples, names, id shapes, its own schema, and the KG notes.",
        mimeType: "text/plain",
      },
      async (uri, { kg }) => {
        const id = await kgOf(kg);
        const [profile, notes] = await Promise.all([onboarding.getProfile(id), onboarding.getNotes(id)]);
        const text = profile ? profileText(profile, notes) : "This KG is not prepared yet: read its schema summary (chatty-kg://kg/{kg}/schema) meanwhile.";
        return { contents: [{ uri: uri.href, mimeType: "text/plain", text }] };
      },
    );
    server.registerResource(
      "kg-examples",
      new ResourceTemplate("chatty-kg://kg/{kg}/examples", {
        list: async () => ({
          resources: (await ctx.registry.list(ctx.sessionId)).map((k) => ({ uri: EXAMPLES_URI(k.id), name: `${k.name}: solved examples`, mimeType: "text/plain" })),
        }),
      }),
      { title: "Solved examples of a KG", description: "Questions with their SPARQL, generated from the KG's own shapes and checked against it.", mimeType: "text/plain" },
      async (uri, { kg }) => {
        const id = await kgOf(kg);
        const { items, total } = await onboarding.listExamples(id, { limit: RESOURCE_EXAMPLES });
        return { contents: [{ uri: uri.href, mimeType: "text/plain", text: examplesText(items, total) }] };
      },
    );
  }
  spec.install();
  return server;
}
