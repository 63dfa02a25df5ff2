// The PostgreSQL Prisma schema is GENERATED from prisma/schema.prisma (SQLite): same models, another provider and client folder.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

export const SQLITE_SCHEMA = "prisma/schema.prisma";
export const SQLITE_MIGRATIONS = "prisma/migrations";
export const POSTGRES_SCHEMA = "prisma/postgres/schema.prisma";
export const POSTGRES_MIGRATIONS = "prisma/postgres/migrations";

export const GENERATED_HEADER =
  "// GENERATED from prisma/schema.prisma by `npm run db:migration -- <name>`; do not edit (CI: `npm run db:check`).\n";

const SQLITE_PROVIDER = /(datasource\s+db\s*\{[^}]*?provider\s*=\s*)"sqlite"/;
const POSTGRES_PROVIDER = /(datasource\s+db\s*\{[^}]*?provider\s*=\s*)"postgresql"/;
const SQLITE_OUTPUT = /(generator\s+client\s*\{[^}]*?output\s*=\s*)"\.\.\/generated\/prisma"/;
const POSTGRES_OUTPUT = /(generator\s+client\s*\{[^}]*?output\s*=\s*)"\.\.\/\.\.\/generated\/prisma-pg"/;

/** prisma/schema.prisma → prisma/postgres/schema.prisma: provider "postgresql", client in generated/prisma-pg. */
export function toPostgresSchema(sqlite: string): string {
  if (!SQLITE_PROVIDER.test(sqlite)) throw new Error(`${SQLITE_SCHEMA}: no datasource with provider = "sqlite"`);
  if (!SQLITE_OUTPUT.test(sqlite)) throw new Error(`${SQLITE_SCHEMA}: the client generator's output is not "../generated/prisma"`);
  return GENERATED_HEADER + sqlite.replace(SQLITE_PROVIDER, '$1"postgresql"').replace(SQLITE_OUTPUT, '$1"../../generated/prisma-pg"');
}

/** The inverse: the SQLite schema a generated PostgreSQL schema was made from (the state of the last migration). */
export function toSqliteSchema(postgres: string): string {
  if (!postgres.startsWith(GENERATED_HEADER)) throw new Error(`${POSTGRES_SCHEMA}: not a generated schema (its first line is not the GENERATED header)`);
  return postgres.slice(GENERATED_HEADER.length).replace(POSTGRES_PROVIDER, '$1"sqlite"').replace(POSTGRES_OUTPUT, '$1"../generated/prisma"');
}

/** Migration folder names (each holds migration.sql), oldest first. */
export function migrationFolders(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => statSync(path.join(dir, n)).isDirectory())
    .sort();
}

/**
 * A new migration folder name: UTC timestamp + the name in snake case, as Prisma names them. Folders run in name
 * order, so the stamp is moved past the newest existing folder's when the clock is behind it.
 */
export function migrationName(name: string, now = new Date(), existing: string[] = []): string {
  const slug = name
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!slug) throw new Error(`"${name}" is not a usable migration name (letters, digits, underscores)`);
  let stamp = now.toISOString().replace(/\D/g, "").slice(0, 14);
  const newest = existing.map((f) => /^(\d{14})_/.exec(f)?.[1]).filter((s): s is string => s !== undefined).sort().at(-1);
  if (newest !== undefined && stamp <= newest) stamp = String(BigInt(newest) + 1n);
  return `${stamp}_${slug}`;
}

export interface MigrationPlan {
  /** a new folder (both dialects), or undefined when the SQLite migrations already cover the change */
  newFolder?: string;
  /** PostgreSQL folders to write: name → SQL */
  postgres: Record<string, string>;
}

/**
 * Which migration folders to write. `unmatched`: SQLite folders without a PostgreSQL counterpart (written by hand,
 * before the generator existed): they are taken to cover the whole change, so no new SQLite migration is made and the
 * PostgreSQL change goes into a folder of the same name (the last one; earlier ones get a note).
 */
export function planMigrations(args: { name?: string; sqliteSql: string; postgresSql: string; unmatched: string[]; existing?: string[]; now?: Date }): MigrationPlan {
  const { unmatched } = args;
  if (unmatched.length > 0) {
    const last = unmatched[unmatched.length - 1];
    const postgres: Record<string, string> = {};
    for (const folder of unmatched) {
      postgres[folder] = folder === last ? args.postgresSql : `-- No statements: this change is in ${last}/migration.sql (generated for PostgreSQL in one step).\n`;
    }
    return { postgres };
  }
  if (!args.sqliteSql.trim() && !args.postgresSql.trim()) return { postgres: {} };
  if (!args.name) throw new Error("The schema changed: give the migration a name, e.g. `npm run db:migration -- add_experience_pool`.");
  const folder = migrationName(args.name, args.now, args.existing);
  return { newFolder: folder, postgres: { [folder]: args.postgresSql } };
}
