// /api/mcp: the MCP server over streamable HTTP (docs/integrations.md). POST carries JSON-RPC; GET and DELETE answer
// 405 (no server-initiated stream; sessions end by themselves).
import { handleMcpRequest, mcpMethodNotAllowed } from "@/lib/mcp/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = handleMcpRequest;
export const GET = mcpMethodNotAllowed;
export const DELETE = mcpMethodNotAllowed;
