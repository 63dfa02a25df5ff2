// Shared file helpers for the dataset readers: read text or JSON with errors that name the file.
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { AppError } from "@/lib/errors";

export function readText(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new AppError(code === "ENOENT" ? "not_found" : "bad_request", `Cannot read ${file}: ${code === "ENOENT" ? "no such file" : (e as Error).message}.`, {
      cause: e,
    });
  }
}

export function readJson(file: string): unknown {
  const text = readText(file);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new AppError("bad_request", `${file} is not valid JSON: ${(e as Error).message}.`, { cause: e });
  }
}

/** Validates parsed data against a reader's schema, naming the first bad path. */
export function parseWith<T extends z.ZodType>(schema: T, data: unknown, file: string, what: string): z.output<T> {
  const r = schema.safeParse(data);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
    throw new AppError("bad_request", `${file} is not ${what}: ${issues}.`, { where: { source: file } });
  }
  return r.data;
}
