// `npm run --silent mcp`: the Chatty-KG MCP server on stdio (Claude Desktop, IDE agents). Nothing but the protocol goes to
// stdout; logs go to stderr. Its conversations are kept under one local session (MCP_STDIO_SESSION, default below).
import { config as loadEnv } from "dotenv";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { getQueries } from "@/lib/db/queries";
import { createChattyMcpServer } from "@/lib/mcp/server";
import { getRateLimiter } from "@/lib/server/limiters";
import { getServices } from "@/lib/server/services";

loadEnv({ quiet: true });

export const DEFAULT_STDIO_SESSION = "machine_mcp_stdio";

async function main(): Promise<void> {
  const { registry, runner, onboarding } = getServices();
  const sessionId = process.env.MCP_STDIO_SESSION?.trim() || DEFAULT_STDIO_SESSION;
  const server = createChattyMcpServer({ registry, runner, onboarding, queries: getQueries(), limiter: getRateLimiter(), sessionId, appUrl: process.env.APP_URL?.trim() || undefined });
  const transport = new StdioServerTransport();
  let stopping = false;
  const stop = async () => {
    // closing the server closes the transport, which reports the close again: once is enough
    if (stopping) return;
    stopping = true;
    await server.close().catch(() => {});
    await registry.close().catch(() => {});
    process.exit(0);
  };
  server.server.onclose = () => void stop();
  // the host closed our stdin: it is done with us
  process.stdin.on("end", () => void stop());
  process.on("SIGINT", () => void stop());
  process.on("SIGTERM", () => void stop());
  await server.connect(transport);
  console.error("chatty-kg MCP server on stdio");
}

main().catch((e: unknown) => {
  console.error(`error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
