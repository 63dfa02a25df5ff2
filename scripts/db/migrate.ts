// Applies the database migrations to DATABASE_URL's database (default SQLite .data/chatty-kg.db): SQLite through
// `prisma migrate deploy`, PostgreSQL through lib/db/postgres-deploy.ts. Used by `npm run db:migrate` and, before
// their first database access, by the command-line tools, so a fresh checkout needs no extra step.
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { deployPostgresMigrations } from "@/lib/db/postgres-deploy";

export const DEFAULT_DATABASE_URL = "file:./.data/chatty-kg.db";

export interface MigrateOutcome {
  ok: boolean;
  /** what happened, one line (or prisma's output when it failed) */
  message: string;
  /** migrations applied now (SQLite: prisma reports them; empty when there was nothing to do) */
  applied: string[];
}

export async function applyMigrations(url = process.env.DATABASE_URL?.trim() || DEFAULT_DATABASE_URL): Promise<MigrateOutcome> {
  mkdirSync(".data", { recursive: true });
  if (/^postgres(ql)?:\/\//i.test(url)) {
    try {
      const { applied, alreadyApplied } = await deployPostgresMigrations(url);
      const host = new URL(url).host;
      const message = applied.length ? `PostgreSQL at ${host}: applied ${applied.join(", ")} (${alreadyApplied.length} already applied)` : `PostgreSQL at ${host}: all ${alreadyApplied.length} migrations already applied`;
      return { ok: true, message, applied };
    } catch (e) {
      return { ok: false, message: e instanceof Error ? e.message : String(e), applied: [] };
    }
  }
  const prisma = path.join(process.cwd(), "node_modules/.bin/prisma");
  const r = spawnSync(prisma, ["migrate", "deploy"], { encoding: "utf8", env: { ...process.env, DATABASE_URL: url } });
  const output = `${r.stdout ?? ""}${r.stderr ?? ""}`;
  if (r.status !== 0) return { ok: false, message: output.trim() || `prisma migrate deploy failed (${r.error?.message ?? `exit ${r.status}`})`, applied: [] };
  const applied = [...output.matchAll(/^\s*└─ (\S+)\/\s*$/gm)].map((m) => m[1]);
  return { ok: true, message: applied.length ? `applied ${applied.length} migration${applied.length === 1 ? "" : "s"} to ${url}` : `${url}: no pending migrations`, applied };
}

let once: Promise<void> | undefined;

/**
 * For command-line tools: the migrations applied once per process before the first database access; a line on stderr
 * when some were applied, and an error that says what to run when they cannot be.
 */
export function ensureMigrated(): Promise<void> {
  once ??= applyMigrations().then((r) => {
    if (!r.ok) throw new Error(`The database could not be prepared (${r.message.split("\n")[0]}). Run \`npm run db:migrate\` and try again.`);
    if (r.applied.length) console.error(`database: ${r.message}`);
  });
  return once;
}
