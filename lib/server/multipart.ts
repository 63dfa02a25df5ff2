// Streaming multipart/form-data parser: file parts go straight to disk (hashed on the way), under a byte cap.
import "server-only";
import { createHash, type Hash } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
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
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from("\r\n");
const HEADER_END = Buffer.from("\r\n\r\n");

function badRequest(message: string): AppError {
  return new AppError("bad_request", message);
}

/** The boundary of a multipart/form-data content type, or undefined. */
export function boundaryOf(contentType: string | null): string | undefined {
  if (!contentType || !/^\s*multipart\/form-data\s*(;|$)/i.test(contentType)) return undefined;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))/i.exec(contentType);
  return m ? (m[1] ?? m[2]) : undefined;
}

/** name and filename of a part's Content-Disposition (quoted, with browsers' %22 / backslash escapes, or RFC 5987). */
export function parseDisposition(headers: string): { name?: string; filename?: string } {
  const line = headers.split("\r\n").find((h) => /^content-disposition\s*:/i.test(h));
  if (!line || !/:\s*form-data/i.test(line)) return {};
  const param = (key: string): string | undefined => {
    const star = new RegExp(`;\\s*${key}\\*\\s*=\\s*([^;]*)`, "i").exec(line);
    if (star) {
      const m = /^[^']*'[^']*'(.*)$/.exec(star[1].trim());
      if (m) {
        try {
          return decodeURIComponent(m[1]);
        } catch {
          // fall through to the plain parameter
        }
      }
    }
    const quoted = new RegExp(`;\\s*${key}\\s*=\\s*"((?:[^"\\\\]|\\\\.)*)"`, "i").exec(line);
    if (quoted) return quoted[1].replace(/\\(.)/g, "$1").replace(/%22/g, '"');
    const bare = new RegExp(`;\\s*${key}\\s*=\\s*([^;\\s]+)`, "i").exec(line);
    return bare?.[1];
  };
  return { name: param("name"), filename: param("filename") };
}

interface FilePart {
  kind: "file";
  file: StreamedFile;
  out: WriteStream;
  hash: Hash;
}
interface FieldPart {
  kind: "field";
  name: string;
  chunks: Buffer[];
  size: number;
}
type Part = FilePart | FieldPart;

/** The first error each file stream hit; a stream without an 'error' listener would crash the process instead. */
const streamErrors = new WeakMap<WriteStream, Error>();

function openFile(filePath: string): WriteStream {
  const out = createWriteStream(filePath);
  out.on("error", (e) => {
    if (!streamErrors.has(out)) streamErrors.set(out, e);
  });
  return out;
}

function write(out: WriteStream, chunk: Buffer): Promise<void> | undefined {
  const failed = streamErrors.get(out);
  if (failed) return Promise.reject(failed);
  // backpressure: wait for the disk only when the stream's buffer is full
  if (out.write(chunk)) return undefined;
  return new Promise((resolve, reject) => {
    const done = (e?: Error) => {
      out.off("drain", done);
      out.off("error", done);
      if (e) reject(e);
      else resolve();
    };
    out.once("drain", done);
    out.once("error", done);
  });
}

function close(out: WriteStream): Promise<void> {
  const failed = streamErrors.get(out);
  if (failed) return Promise.reject(failed);
  return new Promise((resolve, reject) => {
    out.once("error", reject);
    out.end(() => resolve());
  });
}

/** Removes the temporary folder of a parsed form (whatever is still in it). */
export async function removeForm(form: Pick<StreamedForm, "dir">): Promise<void> {
  await rm(form.dir, { recursive: true, force: true }).catch(() => {});
}

/**
 * Reads a multipart/form-data body incrementally: text fields are kept (≤ 64 KB each), parts of `fileField` are
 * written to files in a new temporary folder while their sha256 is computed. Nothing is buffered beyond one chunk
 * plus a boundary's length. Over a cap, the reading stops at once and the folder is removed.
 */
export async function parseMultipartToDisk(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | null,
  options: MultipartOptions,
): Promise<StreamedForm> {
  const boundary = boundaryOf(contentType);
  if (!boundary) throw badRequest(`Send the files as multipart/form-data in the field "${options.fileField}".`);
  const tooLarge = options.tooLarge ?? (() => new AppError("too_large", `The upload is larger than ${Math.round(options.maxFileBytes / 1024 / 1024)} MB.`));
  const dir = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), "chatty-kg-upload-"));
  const form: StreamedForm = { fields: {}, files: [], dir };
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body?.getReader();
  // the body starts with "--boundary" (no CRLF before it): prefixing one lets every delimiter look the same
  let buf: Buffer = Buffer.from(CRLF);
  let state: "preamble" | "after-delimiter" | "headers" | "body" | "done" = "preamble";
  let part: Part | undefined;
  let bodyBytes = 0;
  let fileBytes = 0;
  let ended = false;

  const emit = async (chunk: Buffer) => {
    if (!part || chunk.length === 0) return;
    if (part.kind === "field") {
      part.size += chunk.length;
      if (part.size > MAX_FIELD_BYTES) throw badRequest(`The form field "${part.name}" is too long.`);
      part.chunks.push(chunk);
      return;
    }
    fileBytes += chunk.length;
    if (fileBytes > options.maxFileBytes) throw tooLarge();
    part.file.size += chunk.length;
    part.hash.update(chunk);
    await write(part.out, chunk);
  };
  const endPart = async () => {
    if (!part) return;
    const p = part;
    part = undefined;
    if (p.kind === "field") form.fields[p.name] ??= Buffer.concat(p.chunks).toString("utf8");
    else {
      p.file.sha256 = p.hash.digest("hex");
      await close(p.out);
    }
  };
  const startPart = (headers: string) => {
    const { name, filename } = parseDisposition(headers);
    if (name === undefined) throw badRequest("A multipart part has no Content-Disposition name.");
    if (filename === undefined) {
      part = { kind: "field", name, chunks: [], size: 0 };
      return;
    }
    if (name !== options.fileField) throw badRequest(`Unexpected file field "${name}"; send the files in "${options.fileField}".`);
    if (form.files.length >= options.maxFiles) throw badRequest(`Upload at most ${options.maxFiles} files at once.`);
    const file: StreamedFile = { name: filename, path: path.join(dir, `part-${form.files.length}`), size: 0, sha256: "" };
    form.files.push(file);
    part = { kind: "file", file, out: openFile(file.path), hash: createHash("sha256") };
  };

  try {
    for (;;) {
      // process what is buffered as far as possible
      let progressed = true;
      while (progressed && state !== "done") {
        progressed = false;
        if (state === "preamble" || state === "body") {
          const at = buf.indexOf(delimiter);
          if (at >= 0) {
            if (state === "body") await emit(buf.subarray(0, at));
            await endPart();
            buf = buf.subarray(at + delimiter.length);
            state = "after-delimiter";
            progressed = true;
          } else if (state === "body" && buf.length > delimiter.length) {
            // all but a possible delimiter prefix at the end is content
            const keep = delimiter.length - 1;
            await emit(buf.subarray(0, buf.length - keep));
            buf = Buffer.from(buf.subarray(buf.length - keep));
          } else if (state === "preamble" && buf.length > MAX_HEADER_BYTES) {
            throw badRequest("The multipart body does not start with its boundary.");
          }
        } else if (state === "after-delimiter") {
          if (buf.length >= 2) {
            if (buf[0] === 0x2d && buf[1] === 0x2d) state = "done";
            else {
              // transport padding (spaces/tabs) may follow the delimiter before its CRLF
              const eol = buf.indexOf(CRLF);
              if (eol < 0) {
                if (buf.length > 256) throw badRequest("Malformed multipart boundary line.");
                break;
              }
              buf = buf.subarray(eol + 2);
              state = "headers";
            }
            progressed = true;
          }
        } else if (state === "headers") {
          // a part without headers has its blank line right away
          const at = buf.subarray(0, 2).equals(CRLF) ? -2 : buf.indexOf(HEADER_END);
          if (at !== -1) {
            startPart(at === -2 ? "" : buf.subarray(0, at).toString("utf8"));
            buf = buf.subarray(at === -2 ? 2 : at + HEADER_END.length);
            state = "body";
            progressed = true;
          } else if (buf.length > MAX_HEADER_BYTES) {
            throw badRequest("A multipart part's headers are too long.");
          }
        }
      }
      if (state === "done") break;
      if (ended || !reader) throw badRequest("The multipart body ended before its closing boundary.");
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        continue;
      }
      bodyBytes += value.byteLength;
      if (bodyBytes > options.maxBodyBytes) throw tooLarge();
      const chunk = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
      if (buf.length === 0) buf = chunk;
      else if (state === "body" && buf.length < delimiter.length && chunk.length >= delimiter.length) {
        // Within a file the buffer is only the short tail kept in case a delimiter starts there: when it does not
        // (checked on tail + the chunk's first bytes), emit the tail and take the chunk as is, not a copy of both.
        // Copying every 64 KB chunk doubled the off-heap allocation, and with it the full GCs during a 100 MB upload.
        const head = Buffer.concat([buf, chunk.subarray(0, delimiter.length - 1)]);
        if (head.indexOf(delimiter) < 0) {
          await emit(buf);
          buf = chunk;
        } else buf = Buffer.concat([buf, chunk]);
      } else buf = Buffer.concat([buf, chunk]);
    }
    // an epilogue after the closing boundary is ignored, not read
    await reader?.cancel().catch(() => {});
    return form;
  } catch (e) {
    await reader?.cancel().catch(() => {});
    if (part?.kind === "file") part.out.destroy();
    await removeForm(form);
    throw e;
  }
}
