// Test databases on a PostgreSQL server: a fresh database per test file (created, migrated, dropped) and schema dumps.
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { deployPostgresMigrations } from "@/lib/db/postgres-deploy";

/** The PostgreSQL server the DB test suites use in addition to SQLite (CI: a throwaway cluster), or undefined. */
export function testPostgresUrl(env: Record<string, string | undefined> = process.env): string | undefined {
  const url = env.TEST_DATABASE_URL?.trim();
  return url && /^postgres(ql)?:\/\//i.test(url) ? url : undefined;
}

/** The same server URL with another database name. */
export function withDatabase(serverUrl: string, database: string): string {
  const u = new URL(serverUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

async function withClient<T>(url: string, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Applies the PostgreSQL migrations as `npm run db:migrate` does (lib/db/postgres-deploy.ts). */
export async function applyPostgresMigrations(url: string, dir = path.join(process.cwd(), "prisma/postgres/migrations")): Promise<void> {
  await deployPostgresMigrations(url, dir);
}

/** Runs SQL text (several statements) on the database. */
export async function executePostgres(url: string, sql: string): Promise<void> {
  await withClient(url, (c) => c.query(sql));
}

export interface TempPostgresDb {
  url: string;
  drop(): Promise<void>;
}

/** A new, empty database on the server at `serverUrl` (any database of it); drop() removes it (closing its sessions). */
export async function createTempPostgresDb(serverUrl: string, prefix = "chatty_test"): Promise<TempPostgresDb> {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  await withClient(serverUrl, (c) => c.query(`CREATE DATABASE "${name}"`));
  return {
    url: withDatabase(serverUrl, name),
    drop: () => withClient(serverUrl, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * The tables, columns (type, nullability, default), indexes and constraints of the public schema as sorted text lines,
 * without Prisma's own _prisma_migrations table: two databases with equal dumps have the same schema.
 */
export async function dumpPostgresSchema(url: string): Promise<string[]> {
  return withClient(url, async (c) => {
    const columns = await c.query<{ line: string }>(`
      SELECT format('column %s.%s %s %s default %s', table_name, column_name, data_type, is_nullable, coalesce(column_default, '-')) AS line
      FROM information_schema.columns WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`);
    const indexes = await c.query<{ line: string }>(`
      SELECT format('index %s', indexdef) AS line FROM pg_indexes WHERE schemaname = 'public' AND tablename <> '_prisma_migrations'`);
    const constraints = await c.query<{ line: string }>(`
      SELECT format('constraint %s.%s %s', rel.relname, con.conname, pg_get_constraintdef(con.oid)) AS line
      FROM pg_constraint con JOIN pg_class rel ON rel.oid = con.conrelid JOIN pg_namespace ns ON ns.oid = rel.relnamespace
      WHERE ns.nspname = 'public' AND rel.relname <> '_prisma_migrations'`);
    return [...columns.rows, ...indexes.rows, ...constraints.rows].map((r) => r.line).sort();
  });
}
