// The experience pool for command-line tools: read and written through lib/db/queries.ts (the database at
// DATABASE_URL, default .data/chatty-kg.db, its migrations applied on first use). Loaded lazily, so commands that do
// not use the pool need no database.
import type { PoolEntry } from "@/lib/eval/experience-guard";
import type { Queries } from "@/lib/db/queries";
import { ensureMigrated } from "./db/migrate";

export async function poolQueries(): Promise<Queries> {
  await ensureMigrated();
  const { getQueries } = await import("@/lib/db/queries");
  return getQueries();
}

/** The imported entries of a KG's pool (answers marked helpful belong to their browser session and are not read). */
export async function readImportedPool(kgKey: string): Promise<PoolEntry[]> {
  const rows = await (await poolQueries()).listExperience({ kgKey, limit: 10_000, generated: false });
  return rows.map(({ id, question, sparql, source, dataset, itemId, split }) => ({ id, question, sparql, source, dataset, itemId, split }));
}
