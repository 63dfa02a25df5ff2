// POST /eval/import: a result.json uploaded from the runs page becomes a run of this browser session only.
import { json, handle } from "@/lib/server/http";
import { readBodyLimited } from "@/lib/server/body-limit";
import { getEvalRunStore, IMPORT_MAX_BYTES } from "@/lib/server/eval-runs";
import { getSessionId } from "@/lib/server/session";
import { AppError } from "@/lib/errors";

export async function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const bytes = await readBodyLimited(request, IMPORT_MAX_BYTES);
    if (bytes.byteLength === 0) throw new AppError("bad_request", "The file is empty.");
    const sessionId = await getSessionId();
    const entry = getEvalRunStore().importRun(sessionId, new TextDecoder().decode(bytes));
    return json({ entry }, { status: 201 });
  });
}
