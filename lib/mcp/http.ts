// The MCP server over streamable HTTP (POST /api/mcp), stateless: each request gets a server for its caller's session
// (MCP_TOKEN bearer token, or the browser session and sign-in as for every API route).
import "server-only";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getQueries } from "@/lib/db/queries";
import { errorResponse } from "@/lib/server/http";
import { getRateLimiter } from "@/lib/server/limiters";
import { callerSession } from "@/lib/server/machine-auth";
import { getServices } from "@/lib/server/services";
import { createChattyMcpServer } from "./server";

export const MCP_TOKEN_VAR = "MCP_TOKEN";
/** JSON-RPC bodies are small; a question is at most 2,000 characters. */
const MAX_BODY_BYTES = 256 * 1024;

/** The origin links to a derivation page start with: APP_URL when set, else the origin the request came to. */
function appUrlOf(request: Request): string {
  return process.env.APP_URL?.trim() || new URL(request.url).origin;
}

export async function handleMcpRequest(request: Request): Promise<Response> {
  try {
    const sessionId = await callerSession(request, MCP_TOKEN_VAR);
    const { registry, runner } = getServices();
    const server = createChattyMcpServer({ registry, runner, queries: getQueries(), limiter: getRateLimiter(), sessionId, appUrl: appUrlOf(request) });
    // stateless: no MCP session id, no server-initiated stream; a request's progress notifications ride on its own response
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    request.signal.addEventListener("abort", () => void server.close().catch(() => {}), { once: true });
    return await transport.handleRequest(request);
  } catch (e) {
    return errorResponse(e);
  }
}
