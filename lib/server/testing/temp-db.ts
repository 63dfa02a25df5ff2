// Test helper: a fresh database with the committed migrations applied, and the session-scoped queries on it. SQLite (a
// temp file) by default; a temp database on TEST_DATABASE_URL's PostgreSQL server when TEST_DB_DIALECT=postgres.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { closeDb, createDb, type Dialect, type PrismaClient } from "@/lib/db/client";
import { makeQueries, type Queries } from "@/lib/db/queries";
import { applyPostgresMigrations, createTempPostgresDb, testPostgresUrl } from "@/lib/db/testing/postgres";
import { applySqliteMigrations } from "@/lib/db/testing/sqlite";

export interface TempDb {
  url: string;
  dir: string;
  dialect: Dialect;
  db: PrismaClient;
  queries: Queries;
  close(): Promise<void>;
}

/** The dialect the DB test suites run on: TEST_DB_DIALECT=postgres (with TEST_DATABASE_URL) or SQLite. */
export function testDialect(env: Record<string, string | undefined> = process.env): Dialect {
  if (env.TEST_DB_DIALECT?.trim() !== "postgres") return "sqlite";
  if (!testPostgresUrl(env)) throw new Error("TEST_DB_DIALECT=postgres needs TEST_DATABASE_URL=postgresql://user@host:port/db (a server the tests may create databases on)");
  return "postgres";
}

export async function createTempDb(prefix = "chatty-kg-server-", dialect: Dialect = testDialect()): Promise<TempDb> {
  // a temp folder in both cases: tests keep uploads and other files of the run there
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let url: string;
  let drop = async () => {};
  if (dialect === "postgres") {
    const pg = await createTempPostgresDb(testPostgresUrl()!);
    await applyPostgresMigrations(pg.url);
    url = pg.url;
    drop = pg.drop;
  } else {
    url = `file:${path.join(dir, "test.db")}`;
    await applySqliteMigrations(url);
  }
  const db = createDb(url);
  return {
    url,
    dir,
    dialect,
    db,
    queries: makeQueries(db),
    async close() {
      await closeDb(db);
      await drop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
