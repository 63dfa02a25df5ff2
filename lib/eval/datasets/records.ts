// Record-by-record reading of dataset files: a record that cannot be read is reported with its id and the reason and
// left out, so one bad record never costs the others; a reader given no `skipped` list refuses the file instead.
import type { z } from "zod";
import { AppError } from "@/lib/errors";

export interface SkippedRecord {
  /** the record's id as the file gives it, or its position ("#12") when it has none */
  id: string;
  reason: string;
}

/** Where a reader reports records it left out; absent: any bad record refuses the whole file. */
export interface RecordOptions {
  skipped?: SkippedRecord[];
}

type Issue = { path: PropertyKey[]; message: string; code?: string; errors?: Issue[][] };

/** One issue as "path: message"; for a union, the alternative that got furthest into the record says what is wrong. */
function describeIssue(issue: Issue, prefix: PropertyKey[] = []): string {
  const path = [...prefix, ...issue.path];
  const furthest = issue.code === "invalid_union" ? (issue.errors ?? []).flatMap((branch) => branch.slice(0, 1)).sort((a, b) => b.path.length - a.path.length)[0] : undefined;
  if (furthest) return describeIssue(furthest, path);
  return `${path.map(String).join(".") || "(record)"}: ${issue.message}`;
}

/** "path: message" for the first few issues of a failed parse. */
export function zodReason(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => describeIssue(i as Issue))
    .join("; ");
}

/** The id a raw record carries (`id`, `qname`), else its 1-based position. */
export function rawId(raw: unknown, index: number): string {
  const o = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
  const id = o.id ?? o.qname;
  return typeof id === "string" || typeof id === "number" ? String(id) : `#${index + 1}`;
}

/** Reports a bad record: into `options.skipped`, or as the file's error when the caller wants every record. */
export function skipRecord(options: RecordOptions, file: string, record: SkippedRecord): void {
  if (!options.skipped) throw new AppError("bad_request", `${file}: record ${record.id} cannot be read: ${record.reason}.`, { where: { source: file } });
  options.skipped.push(record);
}

/** Each raw record checked on its own; the good ones in file order. */
export function parseRecords<T extends z.ZodType>(schema: T, records: unknown[], file: string, options: RecordOptions): { raw: unknown; data: z.output<T>; index: number }[] {
  const out: { raw: unknown; data: z.output<T>; index: number }[] = [];
  records.forEach((raw, index) => {
    const r = schema.safeParse(raw);
    if (r.success) out.push({ raw, data: r.data, index });
    else skipRecord(options, file, { id: rawId(raw, index), reason: zodReason(r.error) });
  });
  return out;
}
