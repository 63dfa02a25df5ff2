// SQLite test databases: the committed migrations applied to a file, and a schema dump to compare two databases by.
import fs from "node:fs";
import path from "node:path";
import { createClient } from "@libsql/client";

/** Runs each migration.sql under `dir` in folder order on `url` (a file: URL). */
export async function applySqliteMigrations(url: string, dir = path.join(process.cwd(), "prisma/migrations")): Promise<void> {
  const raw = createClient({ url });
  try {
    for (const name of fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isDirectory()).sort()) {
      await raw.executeMultiple(fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8"));
    }
  } finally {
    raw.close();
  }
}

/** Runs SQL text (several statements) on the database. */
export async function executeSqlite(url: string, sql: string): Promise<void> {
  const raw = createClient({ url });
  try {
    await raw.executeMultiple(sql);
  } finally {
    raw.close();
  }
}

/** Columns, indexes and foreign keys of every table as sorted text lines (Prisma's bookkeeping table left out). */
export async function dumpSqliteSchema(url: string): Promise<string[]> {
  const raw = createClient({ url });
  try {
    const lines: string[] = [];
    const tables = await raw.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '_prisma_migrations'");
    for (const { name } of tables.rows as unknown as { name: string }[]) {
      const q = (pragma: string) => raw.execute(`PRAGMA ${pragma}("${name.replace(/"/g, '""')}")`);
      for (const c of (await q("table_info")).rows) lines.push(`column ${name}.${c.name} ${c.type} notnull=${c.notnull} default=${c.dflt_value} pk=${c.pk}`);
      for (const i of (await q("index_list")).rows) {
        const cols = (await raw.execute(`PRAGMA index_info("${String(i.name).replace(/"/g, '""')}")`)).rows.map((r) => r.name).join(",");
        lines.push(`index ${name}.${i.name} unique=${i.unique} (${cols})`);
      }
      for (const f of (await q("foreign_key_list")).rows) lines.push(`fk ${name}.${f.from} -> ${f.table}.${f.to} on delete ${f.on_delete} on update ${f.on_update}`);
    }
    return lines.sort();
  } finally {
    raw.close();
  }
}
