// /api/mcp: the MCP server over streamable HTTP (docs/integrations.md). POST carries JSON-RPC; GET and DELETE are
// answered by the transport (405: the server is stateless).
import { handleMcpRequest } from "@/lib/mcp/http";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = handleMcpRequest;
export const GET = handleMcpRequest;
export const DELETE = handleMcpRequest;
