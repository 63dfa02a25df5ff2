// Applies prisma/postgres/migrations to a PostgreSQL database, recorded in Prisma's own _prisma_migrations table.
// Why not `prisma migrate deploy`: Prisma 6.19's Wasm schema engine fails through @prisma/adapter-pg ("Column type
// 'name' could not be deserialized", prisma/orm#27403) and the native engine would be a download. The bookkeeping is
// Prisma's (same table, same checksums), so `prisma migrate deploy` can take over once that works.
import { createHash, randomUUID } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";

export const POSTGRES_MIGRATIONS_DIR = "prisma/postgres/migrations";
// the advisory lock key Prisma Migrate takes, so two deploys (or a deploy and Prisma) never run at once
const PRISMA_MIGRATE_LOCK = 72707369;

const BOOKKEEPING = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

export interface DeployResult {
  applied: string[];
  alreadyApplied: string[];
}

/**
 * Applies every migration folder not applied yet, oldest first, each in its own transaction (PostgreSQL DDL is
 * transactional: a failing migration leaves nothing behind and is not recorded). Refuses to go on past a migration
 * Prisma recorded as failed, and when an applied migration's file has changed since.
 */
export async function deployPostgresMigrations(url: string, dir = path.resolve(POSTGRES_MIGRATIONS_DIR)): Promise<DeployResult> {
  const folders = readdirSync(dir).filter((n) => statSync(path.join(dir, n)).isDirectory()).sort();
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 15_000 });
  await client.connect();
  const result: DeployResult = { applied: [], alreadyApplied: [] };
  try {
    await client.query("SELECT pg_advisory_lock($1)", [PRISMA_MIGRATE_LOCK]);
    await client.query(BOOKKEEPING);
    const rows = await client.query<{ migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null }>(
      `SELECT "migration_name", "checksum", "finished_at", "rolled_back_at" FROM "_prisma_migrations"`,
    );
    const recorded = new Map(rows.rows.filter((r) => r.rolled_back_at === null).map((r) => [r.migration_name, r]));
    for (const name of folders) {
      const sql = readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      const row = recorded.get(name);
      if (row?.finished_at === null) {
        throw new Error(`Migration ${name} is recorded as failed in _prisma_migrations: fix the database, then mark it rolled back (or delete its row).`);
      }
      if (row) {
        if (row.checksum !== checksum) throw new Error(`Migration ${name} was changed after it was applied (checksum differs); add a new migration instead.`);
        result.alreadyApplied.push(name);
        continue;
      }
      await client.query("BEGIN");
      try {
        await client.query(sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" ("id", "checksum", "finished_at", "migration_name", "started_at", "applied_steps_count") VALUES ($1, $2, now(), $3, now(), 1)`,
          [randomUUID(), checksum, name],
        );
        await client.query("COMMIT");
      } catch (e) {
        await client.query("ROLLBACK").catch(() => {});
        throw new Error(`Migration ${name} failed and was rolled back: ${(e as Error).message}`, { cause: e });
      }
      result.applied.push(name);
    }
    return result;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [PRISMA_MIGRATE_LOCK]).catch(() => {});
    await client.end();
  }
}
