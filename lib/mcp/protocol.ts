// Where the MCP SDK's McpServer (1.32) answers differently from the 2025-11-25 specification, the server answers
// tools/call and resources/read itself, for the tools and resources registered through it:
//   - arguments that do not fit a tool's schema are a tool execution error the model can read and fix, in the
//     documented `error [bad_request]: …` form (the SDK returned its own "MCP error -32602: Input validation error: …"
//     text with zod's JSON), and an unknown tool is a JSON-RPC error (-32602), not a tool result;
//   - a resource that does not exist is JSON-RPC error -32002 "Resource not found" (the SDK answered -32602 for an
//     unknown URI and -32603 when a template's read failed to find its thing);
//   - structured content is checked against the tool's outputSchema before it is sent.
import type { McpServer, ReadResourceCallback, ReadResourceTemplateCallback, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CallToolRequestSchema, ErrorCode, McpError, ReadResourceRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { AppError, isAppError } from "@/lib/errors";
import { toolError } from "./results";

/** JSON-RPC error code of the MCP specification for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

type ToolCallback = (...args: unknown[]) => CallToolResult | Promise<CallToolResult>;
interface ToolEntry {
  input?: z.ZodType;
  output?: z.ZodType;
  callback: ToolCallback;
}
type ResourceEntry =
  | { kind: "fixed"; uri: string; read: ReadResourceCallback }
  | { kind: "template"; template: ResourceTemplate; read: ReadResourceTemplateCallback };

/** A zod raw shape or schema as registerTool takes it, as one schema. */
function asSchema(s: unknown): z.ZodType | undefined {
  if (!s) return undefined;
  if (s instanceof z.ZodType) return s;
  return z.object(s as z.ZodRawShape);
}

/** zod's issues as a sentence a model can act on: "question: expected a string (missing); kg: too long". */
export function describeIssues(tool: string, error: z.ZodError): string {
  const parts = error.issues.slice(0, 5).map((i) => {
    const where = i.path.length ? i.path.join(".") : "arguments";
    const missing = i.code === "invalid_type" && /received undefined/.test(i.message);
    return `${where}: ${missing ? "required, missing" : i.message.replace(/^Invalid input: /, "")}`;
  });
  return `Invalid arguments for ${tool}: ${parts.join("; ")}.`;
}

/**
 * Records every tool and resource registered on `server` from now on, and returns `install`, which puts this module's
 * tools/call and resources/read handlers in place of the SDK's (call it once everything is registered).
 */
export function conformToSpec(server: McpServer): { install(): void } {
  const tools = new Map<string, ToolEntry>();
  const resources: ResourceEntry[] = [];

  const registerTool = server.registerTool.bind(server);
  server.registerTool = ((name: string, config: { inputSchema?: unknown; outputSchema?: unknown }, callback: ToolCallback) => {
    tools.set(name, { input: asSchema(config.inputSchema), output: asSchema(config.outputSchema), callback });
    return registerTool(name, config as never, callback as never);
  }) as typeof server.registerTool;

  const registerResource = server.registerResource.bind(server);
  server.registerResource = ((name: string, uriOrTemplate: string | ResourceTemplate, config: never, read: never) => {
    resources.push(typeof uriOrTemplate === "string" ? { kind: "fixed", uri: uriOrTemplate, read } : { kind: "template", template: uriOrTemplate, read });
    return registerResource(name, uriOrTemplate as never, config, read);
  }) as typeof server.registerResource;

  return {
    install() {
      server.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
        const name = request.params.name;
        const tool = tools.get(name);
        if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${name}. The tools are ${[...tools.keys()].join(", ")}.`);
        let result: CallToolResult;
        if (tool.input) {
          const args = await tool.input.safeParseAsync(request.params.arguments ?? {});
          if (!args.success) return toolError(new AppError("bad_request", describeIssues(name, args.error)));
          result = await tool.callback(args.data, extra);
        } else {
          result = await tool.callback(extra);
        }
        if (tool.output && !result.isError) {
          const checked = await tool.output.safeParseAsync(result.structuredContent);
          if (!checked.success) throw new McpError(ErrorCode.InternalError, `The result of ${name} does not fit its output schema: ${checked.error.issues[0]?.message}`);
        }
        return result;
      });

      server.server.setRequestHandler(ReadResourceRequestSchema, async (request, extra) => {
        const uri = request.params.uri;
        let url: URL;
        try {
          url = new URL(uri);
        } catch {
          throw new McpError(ErrorCode.InvalidParams, `Not a URI: ${uri.slice(0, 200)}`);
        }
        const notFound = (why?: string) => new McpError(RESOURCE_NOT_FOUND, `Resource not found: ${uri.slice(0, 500)}${why ? ` (${why})` : ""}`, { uri });
        try {
          for (const r of resources) {
            if (r.kind === "fixed" && r.uri === url.toString()) return await r.read(url, extra);
            if (r.kind === "template") {
              const variables = r.template.uriTemplate.match(url.toString());
              if (variables) return await r.read(url, variables, extra);
            }
          }
        } catch (e) {
          // the template matched but its thing is not there (or belongs to another session: the same answer)
          if (isAppError(e) && e.code === "not_found") throw notFound(e.message);
          throw e;
        }
        throw notFound();
      });
    },
  };
}
