// What an MCP tool call returns: text for the agent plus the same data structured, or a tool error carrying the
// project's stable error code (lib/errors.ts) so a client can branch on it.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { safeError } from "@/lib/server/security";

/** A successful result: `text` for the model to read, `data` for clients that read structured content. */
export function toolResult(text: string, data?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: "text", text }], ...(data ? { structuredContent: data } : {}) };
}

/**
 * A tool error (isError) as text, "error [code]: message" (a syntax error's message names its line and column). No
 * structured content: clients check that against the tool's outputSchema, which describes a success.
 */
export function toolError(e: unknown): CallToolResult {
  // redacted: an endpoint's or provider's message may quote a key
  const err = safeError(e);
  return { isError: true, content: [{ type: "text", text: `error [${err.code}]: ${err.message}` }] };
}

/** Runs a tool body; whatever it throws becomes a tool error (never a protocol error the agent cannot read). */
export async function guarded(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (e) {
    return toolError(e);
  }
}
