// Streaming multipart/form-data reading with busboy: file parts go straight to disk (hashed on the way), under a byte cap.
import "server-only";
import busboy from "busboy";
import { createHash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "@/lib/errors";

export interface StreamedFile {
  /** the file name the client sent (not sanitized: the caller decides where it goes) */
  name: string;
  /** where the bytes are on disk (inside `dir` of the result) */
  path: string;
  size: number;
  /** hex sha256 of the content */
  sha256: string;
}

export interface StreamedForm {
  fields: Record<string, string>;
  files: StreamedFile[];
  /** the temporary folder holding the files; the caller removes it (removeForm) when done */
  dir: string;
}

export interface MultipartOptions {
  /** the form field whose parts are files (other file parts are refused) */
  fileField: string;
  /** most bytes of file content in total; more is a too_large error as soon as it streams past */
  maxFileBytes: number;
  /** most bytes of the whole body (files plus boundaries, headers and text fields) */
  maxBodyBytes: number;
  maxFiles: number;
  /** where the temporary folder is made (default: the OS temp folder) */
  tmpDir?: string;
  /** the error for a body over a cap (default: a too_large AppError naming the cap) */
  tooLarge?: () => AppError;
}

const MAX_FIELD_BYTES = 64 * 1024;
const MAX_FIELDS = 20;
/** read-ahead of the source, the parser and each file part */
const READ_AHEAD_BYTES = 16 * 1024;

function badRequest(message: string): AppError {
  return new AppError("bad_request", message);
}

/** Removes the temporary folder of a parsed form (whatever is still in it). */
export async function removeForm(form: Pick<StreamedForm, "dir">): Promise<void> {
  await rm(form.dir, { recursive: true, force: true }).catch(() => {});
}

/** What an error while reading means for the user: our caps as they are, a file system error as it is, a parser error as a 400. */
function asReadError(e: Error): Error {
  if (e instanceof AppError || (e as NodeJS.ErrnoException).code) return e;
  if (/unexpected end/i.test(e.message)) return badRequest("The multipart body ended before its closing boundary.");
  return badRequest(`The multipart body is malformed (${e.message}).`);
}

/**
 * Reads a multipart/form-data body incrementally with busboy: text fields are kept (≤ 64 KB each), parts of
 * `fileField` are written to files in a new temporary folder while their sha256 is computed, with backpressure from
 * the disk. Over a cap, the reading stops at once and the folder is removed.
 */
export async function parseMultipartToDisk(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | null,
  options: MultipartOptions,
): Promise<StreamedForm> {
  const notMultipart = badRequest(`Send the files as multipart/form-data in the field "${options.fileField}".`);
  if (!contentType || !/^\s*multipart\/form-data\s*;/i.test(contentType)) throw notMultipart;
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": contentType },
      // browsers send UTF-8 file names without RFC 5987 encoding
      defParamCharset: "utf8",
      // small buffers, as the source's below: Node 22+ raised the default to 64 KiB, with which a 300 KB upload over a
      // 100 KB cap was read to 230 KB before the cap was seen (140 KB with these)
      highWaterMark: READ_AHEAD_BYTES,
      fileHwm: READ_AHEAD_BYTES,
      limits: { fieldSize: MAX_FIELD_BYTES, fields: MAX_FIELDS, files: options.maxFiles, parts: options.maxFiles + MAX_FIELDS, headerPairs: 50 },
    });
  } catch {
    throw notMultipart; // no boundary
  }
  const tooLarge = options.tooLarge ?? (() => new AppError("too_large", `The upload is larger than ${Math.round(options.maxFileBytes / 1024 / 1024)} MB.`));
  const dir = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), "chatty-kg-upload-"));
  const form: StreamedForm = { fields: {}, files: [], dir };
  // a small read-ahead: over a cap, little more than the cap has been read from the client
  const source = body ? Readable.fromWeb(body as WebReadableStream<Uint8Array>, { highWaterMark: READ_AHEAD_BYTES }) : Readable.from([]);
  const writes: Promise<void>[] = [];
  const outs: WriteStream[] = [];
  let fileBytes = 0;
  let failure: Error | undefined;
  // the first problem wins; stopping the source makes the body pipeline fail, so nothing more is read
  const fail = (e: Error) => {
    failure ??= e;
    source.destroy();
  };
  let bodyBytes = 0;
  source.on("data", (chunk: Buffer) => {
    bodyBytes += chunk.length;
    if (bodyBytes > options.maxBodyBytes) fail(tooLarge());
  });

  parser.on("field", (name, value, info) => {
    if (info.valueTruncated) return fail(badRequest(`The form field "${name}" is too long.`));
    form.fields[name] ??= value;
  });
  parser.on("file", (name, stream, info) => {
    if (name !== options.fileField) {
      // drained and ignored: its errors (the parser stopping mid-part) are this failure's consequence
      stream.on("error", () => {}).resume();
      return fail(badRequest(`Unexpected file field "${name}"; send the files in "${options.fileField}".`));
    }
    // the HTML form encoding escapes a double quote in a file name as %22
    const file: StreamedFile = { name: info.filename.replace(/%22/g, '"'), path: path.join(dir, `part-${form.files.length}`), size: 0, sha256: "" };
    form.files.push(file);
    const hash = createHash("sha256");
    // counted and hashed as the bytes go by (a listener next to the pipe, not another buffering stage)
    stream.on("data", (chunk: Buffer) => {
      fileBytes += chunk.length;
      if (fileBytes > options.maxFileBytes) return fail(tooLarge());
      file.size += chunk.length;
      hash.update(chunk);
    });
    const out = createWriteStream(file.path);
    outs.push(out);
    writes.push(
      pipeline(stream, out).then(
        () => void (file.sha256 = hash.digest("hex")),
        (e: Error) => fail(asReadError(e)),
      ),
    );
  });
  parser.on("filesLimit", () => fail(badRequest(`Upload at most ${options.maxFiles} files at once.`)));
  parser.on("fieldsLimit", () => fail(badRequest(`Send at most ${MAX_FIELDS} form fields.`)));
  parser.on("partsLimit", () => fail(badRequest("The form has too many parts.")));

  try {
    await pipeline(source, parser).catch((e: Error) => {
      throw failure ?? asReadError(e);
    });
    await Promise.all(writes);
    if (failure) throw failure;
    return form;
  } catch (e) {
    for (const out of outs) out.destroy();
    await Promise.allSettled(writes);
    await removeForm(form);
    throw failure ?? e;
  }
}
