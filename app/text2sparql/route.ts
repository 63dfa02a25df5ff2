// GET /text2sparql: the same API at the path the official client appends to a registered base URL.
import { handleText2Sparql } from "@/lib/server/text2sparql-service";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export function GET(request: Request): Promise<Response> {
  return handleText2Sparql(request);
}
