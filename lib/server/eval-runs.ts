// Benchmark runs on disk: CLI runs in <EVAL_RUNS_DIR>/<run-id>/result.json (public to this installation) and runs a
// browser imported in <EVAL_RUNS_DIR>/imported/<sessionId>/<dir>/result.json (that session's only), zod-checked.
import "server-only";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { runResultSchema, type RunResult } from "@/lib/eval/result-schema";
import { listEntryOf, type RunListEntry, type RunOwner } from "@/lib/eval/view-model-list";

export const RESULT_FILE = "result.json";
/** The folder under the runs dir that holds imported runs; never listed as a CLI run. */
export const IMPORTED_DIR = "imported";
/** Imported runs get refs `imported~<dir>`; "~" never names a CLI run (see cliRunDirs), so refs cannot collide. */
const IMPORTED_PREFIX = "imported~";
/** Largest result file the page imports (a 1,000-question run is a few MB). */
export const IMPORT_MAX_BYTES = 25 * 1024 * 1024;
const SESSION_ID = /^[A-Za-z0-9_-]{16,64}$/;

/** The runs directory: EVAL_RUNS_DIR, else .data/eval (the CLI's default --out). */
export function evalRunsDir(env: Record<string, string | undefined> = process.env, cwd = process.cwd()): string {
  return path.resolve(cwd, env.EVAL_RUNS_DIR?.trim() || ".data/eval");
}

export interface LoadedRun {
  entry: RunListEntry;
  /** null when the file is missing or invalid (entry.status says why) */
  result: RunResult | null;
}

export interface EvalRunStore {
  /** CLI runs and this session's imported runs, newest first; broken and unfinished ones last. */
  list(sessionId: string | null): RunListEntry[];
  /** One run by ref; not_found for unknown refs and for another session's imported run. */
  load(sessionId: string | null, ref: string): LoadedRun;
  /** Validates a result file and stores it as this session's; returns its entry. */
  importRun(sessionId: string, text: string): RunListEntry;
}

function subdirs(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return []; // no runs yet
  }
}

/** Directory names usable as run refs: no "~", not the imported folder, not hidden. */
function cliRunDirs(root: string): string[] {
  return subdirs(root).filter((n) => n !== IMPORTED_DIR && !n.startsWith(".") && !n.includes("~"));
}

/** The first few zod issues as one line ("questions.3.type: Invalid option …"). */
export function describeIssues(error: z.ZodError, max = 3): string {
  const parts = error.issues.slice(0, max).map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`);
  const more = error.issues.length - max;
  return parts.join("; ") + (more > 0 ? ` (and ${more} more problems)` : "");
}

/** Parses a result file's text: the run, or why it is not one. */
export function parseResultText(text: string): { ok: true; result: RunResult } | { ok: false; reason: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, reason: `Not valid JSON: ${(e as Error).message}` };
  }
  if (raw && typeof raw === "object" && "version" in raw && (raw as { version: unknown }).version !== 1) {
    return { ok: false, reason: `Unsupported result version ${JSON.stringify((raw as { version: unknown }).version)} (this app reads version 1).` };
  }
  const parsed = runResultSchema.safeParse(raw);
  return parsed.success ? { ok: true, result: parsed.data } : { ok: false, reason: `Not a valid result file: ${describeIssues(parsed.error)}` };
}

function countLines(file: string): number {
  try {
    return readFileSync(file, "utf8").split("\n").filter((l) => l.trim()).length;
  } catch {
    return 0;
  }
}

export function createEvalRunStore(options: { dir: string }): EvalRunStore {
  const root = options.dir;
  // parsed files by path, re-read when size or mtime changes (listing re-reads nothing that did not change)
  const cache = new Map<string, { stamp: string; loaded: LoadedRun }>();

  const readRun = (runDir: string, ref: string, owner: RunOwner): LoadedRun => {
    const file = path.join(runDir, RESULT_FILE);
    let st;
    try {
      st = statSync(file);
    } catch {
      const checkpointed = countLines(path.join(runDir, "checkpoint.jsonl"));
      const reason =
        checkpointed > 0 || existsSync(path.join(runDir, "run-meta.json"))
          ? `No ${RESULT_FILE} yet: the run is still going or was interrupted (${checkpointed} questions checkpointed; resume it with the CLI).`
          : `No ${RESULT_FILE} in this folder.`;
      return { entry: { status: "pending", ref, owner, reason, modifiedAt: null }, result: null };
    }
    const stamp = `${st.size}:${st.mtimeMs}`;
    const hit = cache.get(file);
    if (hit && hit.stamp === stamp && hit.loaded.entry.ref === ref) return hit.loaded;
    const parsed = parseResultText(readFileSync(file, "utf8"));
    const modifiedAt = st.mtime.toISOString();
    const loaded: LoadedRun = parsed.ok
      ? { entry: listEntryOf(parsed.result, ref, owner), result: parsed.result }
      : { entry: { status: "broken", ref, owner, reason: parsed.reason, modifiedAt }, result: null };
    cache.set(file, { stamp, loaded });
    return loaded;
  };

  const sessionDir = (sessionId: string) => {
    // why: the id comes from a verified cookie, but it also names a folder, so check its shape again
    if (!SESSION_ID.test(sessionId)) throw new AppError("bad_request", "Invalid session.");
    return path.join(root, IMPORTED_DIR, sessionId);
  };

  const all = (sessionId: string | null): LoadedRun[] => {
    const cli = cliRunDirs(root).map((d) => readRun(path.join(root, d), d, "installation"));
    const mine = sessionId ? subdirs(sessionDir(sessionId)).map((d) => readRun(path.join(sessionDir(sessionId), d), IMPORTED_PREFIX + d, "session")) : [];
    return [...cli, ...mine];
  };

  return {
    list(sessionId) {
      const rank = (e: RunListEntry) => (e.status === "ok" ? 0 : e.status === "pending" ? 1 : 2);
      const when = (e: RunListEntry) => (e.status === "ok" ? e.startedAt : (e.modifiedAt ?? ""));
      return all(sessionId)
        .map((r) => r.entry)
        .sort((a, b) => rank(a) - rank(b) || when(b).localeCompare(when(a)) || a.ref.localeCompare(b.ref));
    },

    load(sessionId, ref) {
      // refs are matched against what is on disk, never joined into a path as given
      if (ref.startsWith(IMPORTED_PREFIX)) {
        const d = ref.slice(IMPORTED_PREFIX.length);
        if (sessionId && subdirs(sessionDir(sessionId)).includes(d)) return readRun(path.join(sessionDir(sessionId), d), ref, "session");
      } else if (cliRunDirs(root).includes(ref)) {
        return readRun(path.join(root, ref), ref, "installation");
      }
      throw new AppError("not_found", `No evaluation run "${ref}".`);
    },

    importRun(sessionId, text) {
      if (Buffer.byteLength(text) > IMPORT_MAX_BYTES) throw new AppError("too_large", `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB.`);
      const parsed = parseResultText(text);
      if (!parsed.ok) throw new AppError("bad_request", parsed.reason);
      const base = sessionDir(sessionId);
      mkdirSync(base, { recursive: true });
      const taken = new Set(subdirs(base));
      const stem = safeDirName(parsed.result.runId);
      let name = stem;
      for (let i = 2; taken.has(name); i++) name = `${stem}-${i}`;
      const dir = path.join(base, name);
      mkdirSync(dir, { recursive: true });
      // write to a temp file and rename, so a listing never sees half a file
      const tmp = path.join(dir, `.${RESULT_FILE}.${process.pid}.tmp`);
      writeFileSync(tmp, JSON.stringify(parsed.result, null, 2) + "\n");
      renameSync(tmp, path.join(dir, RESULT_FILE));
      return readRun(dir, IMPORTED_PREFIX + name, "session").entry;
    },
  };
}

/** A folder name from a run id: letters, digits, ".", "_" and "-" only, at most 80 characters, never hidden. */
export function safeDirName(runId: string): string {
  const cleaned = runId.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[.-]+/, "").slice(0, 80);
  return cleaned || "run";
}

// why module-level, not globalThis: Next bundles pages and route handlers separately, each with its own AppError
// class; a store shared across bundles would throw errors the other bundle's `instanceof AppError` does not know
const stores = new Map<string, EvalRunStore>();
/** The store for the configured runs dir (one per bundle and dir, so its parse cache is shared by requests). */
export function getEvalRunStore(): EvalRunStore {
  const dir = evalRunsDir();
  let store = stores.get(dir);
  if (!store) {
    store = createEvalRunStore({ dir });
    stores.set(dir, store);
  }
  return store;
}
