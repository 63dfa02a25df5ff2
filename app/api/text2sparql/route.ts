// GET /api/text2sparql?question=…&dataset=…: the TEXT2SPARQL challenge API (docs/integrations.md).
import { handleText2Sparql } from "@/lib/server/text2sparql-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handleText2Sparql(request);
}
