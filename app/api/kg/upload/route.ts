// POST /api/kg/upload (multipart: `files`, optional `name` and `entailment`): loads RDF files into a new embedded KG for this session.
// A route handler, not a server action, so the browser can show upload progress (XHR upload events).
import { AppError } from "@/lib/errors";
import { uploadFieldsSchema, type KgCreatedResponse } from "@/lib/api/contract";
import { handle, json, parseWith } from "@/lib/server/http";
import { MAX_UPLOAD_FILES, uploadLimitBytes } from "@/lib/server/kg-registry";
import { parseMultipartToDisk, removeForm } from "@/lib/server/multipart";
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
    const tooLarge = () => new AppError("too_large", `The upload is larger than ${Math.round(limit / 1024 / 1024)} MB; set KG_UPLOAD_MAX_MB to allow more.`);
    // refused by Content-Length before reading, and cut off while streaming when the size was not announced
    const announced = request.headers.get("content-length");
    if (announced !== null && Number(announced) > limit + FORM_OVERHEAD) throw tooLarge();
    // streamed to a temporary folder part by part: a 100 MB body is never held in memory or parsed in one go
    const form = await parseMultipartToDisk(request.body, request.headers.get("content-type"), {
      fileField: "files",
      maxFileBytes: limit,
      maxBodyBytes: limit + FORM_OVERHEAD,
      maxFiles: MAX_UPLOAD_FILES,
      tooLarge,
    });
    try {
      const { name, entailment } = parseWith(uploadFieldsSchema, { name: form.fields.name, entailment: form.fields.entailment || undefined }, "form fields");
      const kg = await getServices().registry.addUpload(sessionId, form.files, name, { entailment });
      const body: KgCreatedResponse = { kg };
      return json(body, { status: 201 });
    } finally {
      await removeForm(form);
    }
  });
}
