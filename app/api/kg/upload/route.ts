// POST /api/kg/upload (multipart: `files`, optional `name`): loads RDF files into a new embedded KG for this session.
// A route handler, not a server action, so the browser can show upload progress (XHR upload events).
import { AppError } from "@/lib/errors";
import { uploadFieldsSchema, type KgCreatedResponse } from "@/lib/api/contract";
import { readBodyLimited } from "@/lib/server/body-limit";
import { handle, json, parseWith } from "@/lib/server/http";
import { uploadLimitBytes } from "@/lib/server/kg-registry";
import { getServices } from "@/lib/server/services";
import { getSessionId } from "@/lib/server/session";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

// multipart boundaries and headers around the files
const FORM_OVERHEAD = 1024 * 1024;

export function POST(request: Request): Promise<Response> {
  return handle(async () => {
    const sessionId = await getSessionId();
    const limit = uploadLimitBytes();
    // refused by Content-Length before reading, and cut off while streaming when the size was not announced
    const raw = await readBodyLimited(request, limit + FORM_OVERHEAD).catch((e: unknown) => {
      if (e instanceof AppError && e.code === "too_large") {
        throw new AppError("too_large", `The upload is larger than ${Math.round(limit / 1024 / 1024)} MB; set KG_UPLOAD_MAX_MB to allow more.`);
      }
      throw e;
    });
    let form: FormData;
    try {
      form = await new Response(raw as BodyInit, { headers: { "content-type": request.headers.get("content-type") ?? "" } }).formData();
    } catch {
      throw new AppError("bad_request", "Send the files as multipart/form-data in the field \"files\".");
    }
    const { name } = parseWith(uploadFieldsSchema, { name: form.get("name") ?? undefined }, "form fields");
    const files = await Promise.all(
      form
        .getAll("files")
        .filter((f): f is File => typeof f !== "string")
        .map(async (f) => ({ name: f.name, data: new Uint8Array(await f.arrayBuffer()) })),
    );
    const kg = await getServices().registry.addUpload(sessionId, files, name);
    const body: KgCreatedResponse = { kg };
    return json(body, { status: 201 });
  });
}
