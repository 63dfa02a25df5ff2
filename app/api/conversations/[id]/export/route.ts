// GET /api/conversations/[id]/export?format=md|json: downloads a conversation (questions, answers, SPARQL).
import { exportQuerySchema } from "@/lib/api/contract";
import { getQueries } from "@/lib/db/queries";
import { toExport, toMarkdown } from "@/lib/server/export";
import { handle, parseWith, searchParamsOf } from "@/lib/server/http";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

function fileName(title: string, ext: string): string {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 60) || "conversation";
  return `${slug}.${ext}`;
}

export function GET(request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const { id } = await context.params;
    const { format } = parseWith(exportQuerySchema, searchParamsOf(request), "query string");
    const conversation = await getQueries().getConversation({ sessionId, conversationId: id });
    const body = format === "json" ? `${JSON.stringify(toExport(conversation), null, 2)}\n` : toMarkdown(conversation);
    return new Response(body, {
      headers: {
        "content-type": format === "json" ? "application/json; charset=utf-8" : "text/markdown; charset=utf-8",
        "content-disposition": `attachment; filename="${fileName(conversation.title, format)}"`,
        "cache-control": "no-store",
      },
    });
  });
}
