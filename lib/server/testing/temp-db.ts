// Test helper: a fresh SQLite file with the committed migrations applied, and the session-scoped queries on it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { createDb, type PrismaClient } from "@/lib/db/client";
import { makeQueries, type Queries } from "@/lib/db/queries";

export interface TempDb {
  url: string;
  dir: string;
  db: PrismaClient;
  queries: Queries;
  close(): Promise<void>;
}

/** Applies prisma/migrations/* in order to `url` (a file: URL). */
export async function applyMigrations(url: string): Promise<void> {
  const root = path.join(process.cwd(), "prisma/migrations");
  const raw = createClient({ url });
  for (const name of fs.readdirSync(root).filter((n) => fs.statSync(path.join(root, n)).isDirectory()).sort()) {
    await raw.executeMultiple(fs.readFileSync(path.join(root, name, "migration.sql"), "utf8"));
  }
  raw.close();
}

export async function createTempDb(prefix = "chatty-kg-server-"): Promise<TempDb> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const url = `file:${path.join(dir, "test.db")}`;
  await applyMigrations(url);
  const db = createDb(url);
  return {
    url,
    dir,
    db,
    queries: makeQueries(db),
    async close() {
      await db.$disconnect();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
