// Prisma CLI config: the Wasm schema engine ("js") through a driver adapter, so generate/migrate work offline.
// DATABASE_URL picks the database: a file: URL is SQLite (prisma/schema.prisma, libsql adapter), a postgres(ql):// URL is
// PostgreSQL (prisma/postgres/schema.prisma, generated from the SQLite schema; pg adapter).
import "dotenv/config";
import fs from "node:fs";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";
import { PrismaPg } from "@prisma/adapter-pg";

// The default SQLite file lives in the git-ignored .data/ folder; the schema's env("DATABASE_URL") must resolve.
const DEFAULT_DATABASE_URL = "file:./.data/chatty-kg.db";
if (!process.env.DATABASE_URL) process.env.DATABASE_URL = DEFAULT_DATABASE_URL;
fs.mkdirSync(".data", { recursive: true });
const url = process.env.DATABASE_URL;
const postgres = /^postgres(ql)?:\/\//i.test(url);

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: postgres ? "prisma/postgres/schema.prisma" : "prisma/schema.prisma",
  migrations: { path: postgres ? "prisma/postgres/migrations" : "prisma/migrations" },
  async adapter() {
    return postgres ? new PrismaPg({ connectionString: url }) : new PrismaLibSQL({ url });
  },
});
