// The MCP server over streamable HTTP (/api/mcp), per the 2025-11-25 transport: POST carries JSON-RPC; GET and DELETE
// are 405 (no server-initiated stream; sessions end by themselves). Sessions: initialize answers with an Mcp-Session-Id
// that names the app session the client's requests run under, so a client without cookies reads back what ask_kg made.
// The id is signed (SESSION_SECRET), so every server process accepts it; the transport itself stays stateless.
import "server-only";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getQueries } from "@/lib/db/queries";
import { AppError } from "@/lib/errors";
import { readBodyLimited } from "@/lib/server/body-limit";
import { getRateLimiter } from "@/lib/server/limiters";
import { checkBearer, tokenSessionId } from "@/lib/server/machine-auth";
import { logError, safeError } from "@/lib/server/security";
import { cookieSessionId, getSessionId, sessionToken, verifySessionToken } from "@/lib/server/session";
import { getServices } from "@/lib/server/services";
import { createChattyMcpServer } from "./server";

export const MCP_TOKEN_VAR = "MCP_TOKEN";
export const MCP_SESSION_HEADER = "mcp-session-id";
const SESSION_PURPOSE = "mcp1";
/** JSON-RPC bodies are small; a question is at most 2,000 characters. */
const MAX_BODY_BYTES = 256 * 1024;

/** A JSON-RPC error as the whole HTTP response (what an MCP client can read whatever the status). */
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}, id: string | number | null = null): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", error: { code, message }, id }), {
    status,
    headers: { "content-type": "application/json", "cache-control": "no-store", ...headers },
  });
}

/** GET, DELETE and anything but POST: this endpoint opens no server-initiated stream and lets sessions expire. */
export function mcpMethodNotAllowed(request: Request): Response {
  const why =
    request.method === "GET"
      ? "this server opens no server-initiated event stream; each POST carries its own progress"
      : request.method === "DELETE"
        ? "sessions end by themselves here; there is nothing to delete"
        : "use POST";
  return jsonRpcError(405, -32000, `Method not allowed: ${why}.`, { allow: "POST" });
}

/** The origin links start with: APP_URL when set, else the origin the client used (Host / X-Forwarded-*). */
export function appUrlOf(request: Request, env: Record<string, string | undefined> = process.env): string {
  const configured = env.APP_URL?.trim();
  if (configured) return configured.replace(/\/+$/, "");
  const url = new URL(request.url);
  const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() || request.headers.get("host")?.trim() || url.host;
  const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(/:$/, "");
  return `${proto}://${host}`;
}

/** Who is calling: a valid MCP_TOKEN, a signed-in (or any, with sign-in off) browser's cookie, or nobody known yet. */
async function identify(request: Request): Promise<string | undefined> {
  const bearer = checkBearer(request.headers.get("authorization"), MCP_TOKEN_VAR);
  if (bearer.kind === "valid") return tokenSessionId(MCP_TOKEN_VAR);
  if (bearer.kind === "invalid") throw new AppError("unauthorized", `The bearer token was refused: ${bearer.why}.`, { details: { invalidToken: true } });
  return (await cookieSessionId()) ?? undefined;
}

function errorOf(e: unknown): Response {
  const err = safeError(e);
  if (err.code === "internal") logError("[chatty-kg] MCP internal error:", e);
  if (err.status === 401) {
    // RFC 6750: the scheme this endpoint takes; error="invalid_token" when a token came and was wrong
    const challenge = err.details?.invalidToken ? `Bearer realm="chatty-kg", error="invalid_token"` : `Bearer realm="chatty-kg"`;
    return jsonRpcError(401, -32000, `Unauthorized: ${err.message} Send "Authorization: Bearer <MCP_TOKEN>".`, { "www-authenticate": challenge });
  }
  const retryAfterS = err.details?.retryAfterS;
  return jsonRpcError(err.status, -32000, `error [${err.code}]: ${err.message}`, typeof retryAfterS === "number" ? { "retry-after": String(retryAfterS) } : {});
}

const isInitialize = (body: unknown) =>
  (Array.isArray(body) ? body : [body]).some((m) => m && typeof m === "object" && (m as { method?: unknown }).method === "initialize");

export async function handleMcpRequest(request: Request): Promise<Response> {
  if (request.method !== "POST") return mcpMethodNotAllowed(request);
  try {
    const caller = await identify(request);
    const header = request.headers.get(MCP_SESSION_HEADER);
    let sessionId: string;
    if (header) {
      const named = verifySessionToken(SESSION_PURPOSE, header);
      // unknown, forged, or another caller's: the client starts a new session (spec: 404 → initialize again)
      if (!named || (caller !== undefined && named !== caller)) return jsonRpcError(404, -32001, "Session not found: send initialize again.");
      sessionId = named;
    } else {
      sessionId = caller ?? (await getSessionId());
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(await readBodyLimited(request, MAX_BODY_BYTES)));
    } catch (e) {
      if (e instanceof AppError) throw e;
      return jsonRpcError(400, -32700, "Parse error: the body is not JSON.");
    }
    const { registry, runner, onboarding } = getServices();
    const server = createChattyMcpServer({ registry, runner, onboarding, queries: getQueries(), limiter: getRateLimiter(), sessionId, appUrl: appUrlOf(request) });
    // one transport per request (the SDK's stateless mode): a request's progress notifications ride on its own response
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, maxRequestBodySize: MAX_BODY_BYTES });
    await server.connect(transport);
    request.signal.addEventListener("abort", () => void server.close().catch(() => {}), { once: true });
    const response = await transport.handleRequest(request, { parsedBody: body });
    if (!isInitialize(body) || !response.ok) return response;
    const headers = new Headers(response.headers);
    headers.set(MCP_SESSION_HEADER, sessionToken(SESSION_PURPOSE, sessionId));
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  } catch (e) {
    return errorOf(e);
  }
}
