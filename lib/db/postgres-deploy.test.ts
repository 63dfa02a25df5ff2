// The PostgreSQL migration deploy (npm run db:migrate): idempotent, Prisma's bookkeeping, a failure leaves nothing.
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deployPostgresMigrations } from "./postgres-deploy";
import { createTempPostgresDb, testPostgresUrl, type TempPostgresDb } from "./testing/postgres";

const server = testPostgresUrl();
if (!server) console.warn("[postgres] deploy suite skipped: no TEST_DATABASE_URL (a PostgreSQL server to create test databases on)");

async function rows(url: string, sql: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows;
  } finally {
    await c.end();
  }
}

describe.skipIf(!server)(`[postgres] deployPostgresMigrations${server ? "" : " (skipped: no TEST_DATABASE_URL)"}`, () => {
  let db: TempPostgresDb;
  let dir: string;
  beforeAll(async () => {
    db = await createTempPostgresDb(server!, "chatty_deploy");
    dir = mkdtempSync(path.join(os.tmpdir(), "chatty-deploy-"));
    cpSync("prisma/postgres/migrations", dir, { recursive: true });
  });
  afterAll(async () => {
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("applies every migration once, recording each in _prisma_migrations as Prisma does", async () => {
    const first = await deployPostgresMigrations(db.url, dir);
    expect(first.applied.length).toBeGreaterThanOrEqual(2);
    expect(first.alreadyApplied).toEqual([]);
    const again = await deployPostgresMigrations(db.url, dir);
    expect(again).toEqual({ applied: [], alreadyApplied: first.applied });
    const recorded = await rows(db.url, `SELECT migration_name, length(checksum) AS len, finished_at IS NOT NULL AS done, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name`);
    expect(recorded).toEqual(first.applied.map((migration_name) => ({ migration_name, len: 64, done: true, applied_steps_count: 1 })));
    expect(await rows(db.url, `SELECT count(*)::int AS n FROM "Turn"`)).toEqual([{ n: 0 }]);
  });

  it("a failing migration is rolled back whole and not recorded; the next deploy tries it again", async () => {
    mkdirSync(path.join(dir, "99990101000000_broken"));
    writeFileSync(path.join(dir, "99990101000000_broken", "migration.sql"), `CREATE TABLE "Half" ("id" TEXT);\nSELECT no_such_function();\n`);
    await expect(deployPostgresMigrations(db.url, dir)).rejects.toThrow(/99990101000000_broken failed and was rolled back: .*no_such_function/);
    expect(await rows(db.url, `SELECT to_regclass('"Half"') IS NULL AS gone`)).toEqual([{ gone: true }]);
    expect(await rows(db.url, `SELECT count(*)::int AS n FROM "_prisma_migrations" WHERE migration_name = '99990101000000_broken'`)).toEqual([{ n: 0 }]);
    writeFileSync(path.join(dir, "99990101000000_broken", "migration.sql"), `CREATE TABLE "Half" ("id" TEXT);\n`);
    expect((await deployPostgresMigrations(db.url, dir)).applied).toEqual(["99990101000000_broken"]);
  });

  it("refuses to go on when an applied migration's file was edited afterwards", async () => {
    writeFileSync(path.join(dir, "99990101000000_broken", "migration.sql"), `CREATE TABLE "Half" ("id" TEXT, "x" INT);\n`);
    await expect(deployPostgresMigrations(db.url, dir)).rejects.toThrow(/99990101000000_broken was changed after it was applied/);
  });
});
