// An upload's files before they become a KG: the count and size limits and the RDF extension checked with the file
// named, names made safe to write, the content's digest (what makes two uploads the same), the files put in place.
import "server-only";
import { createHash } from "node:crypto";
import { copyFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { AppError } from "@/lib/errors";
import { DEFAULT_UPLOAD_MAX_MB, UPLOAD_EXTENSIONS } from "@/lib/api/contract";
import { formatFromPath } from "@/lib/kg/embedded/formats";

export const MAX_UPLOAD_FILES = 20;

export interface UploadFile {
  name: string;
  data: Uint8Array;
}

/** An upload the route streamed to disk: the registry moves the file into its own folder. */
export interface StreamedUploadFile {
  name: string;
  /** a temporary file the registry may move away */
  path: string;
  size: number;
  /** hex sha256 of the content, computed while it streamed */
  sha256: string;
}

export type AnyUploadFile = UploadFile | StreamedUploadFile;

function sizeOf(f: AnyUploadFile): number {
  return "data" in f ? f.data.byteLength : f.size;
}

/** Puts an upload's content at `target`: written from memory, or the streamed file moved (copied across devices). */
async function place(f: AnyUploadFile, target: string): Promise<void> {
  if ("data" in f) return writeFile(target, f.data);
  try {
    await rename(f.path, target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EXDEV") throw e;
    await copyFile(f.path, target);
  }
}

/** The upload size limit in bytes, from KG_UPLOAD_MAX_MB (default 50). */
export function uploadLimitBytes(env: Record<string, string | undefined> = process.env): number {
  const raw = env.KG_UPLOAD_MAX_MB?.trim();
  const mb = raw ? Number(raw) : DEFAULT_UPLOAD_MAX_MB;
  if (!Number.isFinite(mb) || mb <= 0) throw new AppError("internal", `KG_UPLOAD_MAX_MB must be a positive number (got "${raw}").`);
  return Math.floor(mb * 1024 * 1024);
}

/** Refuses an upload with no file, too many, a file we cannot read as RDF, an empty one, or more than `limit` bytes. */
export function checkUploadFiles(files: AnyUploadFile[], limit: number): void {
  if (files.length === 0) throw new AppError("bad_request", "Choose at least one RDF file to upload.");
  if (files.length > MAX_UPLOAD_FILES) throw new AppError("bad_request", `Upload at most ${MAX_UPLOAD_FILES} files at once.`);
  let total = 0;
  for (const f of files) {
    if (!formatFromPath(f.name)) {
      throw new AppError("bad_request", `${f.name}: not an RDF file extension we read (${UPLOAD_EXTENSIONS.join(", ")}).`, {
        where: { source: f.name },
      });
    }
    if (sizeOf(f) === 0) throw new AppError("bad_request", `${f.name} is empty.`, { where: { source: f.name } });
    total += sizeOf(f);
    if (total > limit) {
      throw new AppError("too_large", `The upload is larger than ${Math.round(limit / 1024 / 1024)} MB (at ${f.name}); set KG_UPLOAD_MAX_MB to allow more.`, {
        where: { source: f.name },
      });
    }
  }
}

/** A file name safe to write: base name only, no path tricks, at most 120 characters. */
function safeFileName(name: string, taken: Set<string>): string {
  const base = path.basename(name.replace(/\\/g, "/")).replace(/[^\p{L}\p{N}._-]+/gu, "_").replace(/^\.+/, "");
  const ext = path.extname(base);
  const stem = base.slice(0, base.length - ext.length).slice(0, 100) || "file";
  let candidate = `${stem}${ext}`;
  for (let i = 2; taken.has(candidate.toLowerCase()); i++) candidate = `${stem}-${i}${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}

/** sha256 over the files' contents, order and names ignored: what makes two uploads "the same". */
export function uploadDigest(files: AnyUploadFile[]): string {
  const each = files.map((f) => ("data" in f ? createHash("sha256").update(f.data).digest("hex") : f.sha256)).sort();
  return createHash("sha256").update(each.join("\n")).digest("hex");
}

/** Writes (or moves) each file into `folder` under a safe, distinct name; returns the names, in order. */
export async function storeUploadFiles(files: AnyUploadFile[], folder: string): Promise<string[]> {
  const taken = new Set<string>();
  const stored: string[] = [];
  for (const f of files) {
    const fileName = safeFileName(f.name, taken);
    await place(f, path.join(folder, fileName));
    stored.push(fileName);
  }
  return stored;
}
