// `npm run db:migrate`: applies the migrations to DATABASE_URL's database (default SQLite .data/chatty-kg.db):
// SQLite through `prisma migrate deploy`, PostgreSQL through lib/db/postgres-deploy.ts.
import "dotenv/config";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { deployPostgresMigrations } from "@/lib/db/postgres-deploy";

const url = process.env.DATABASE_URL?.trim() || "file:./.data/chatty-kg.db";
mkdirSync(".data", { recursive: true });

if (/^postgres(ql)?:\/\//i.test(url)) {
  try {
    const { applied, alreadyApplied } = await deployPostgresMigrations(url);
    const host = new URL(url).host;
    console.log(
      applied.length ? `PostgreSQL at ${host}: applied ${applied.join(", ")} (${alreadyApplied.length} already applied)` : `PostgreSQL at ${host}: all ${alreadyApplied.length} migrations already applied`,
    );
  } catch (e) {
    console.error(`db:migrate: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  }
} else {
  const prisma = path.join(process.cwd(), "node_modules/.bin/prisma");
  const r = spawnSync(prisma, ["migrate", "deploy"], { stdio: "inherit", env: { ...process.env, DATABASE_URL: url } });
  process.exit(r.status ?? 1);
}
