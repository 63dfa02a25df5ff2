// Prisma CLI config: the Wasm schema engine ("js") through the libsql adapter, so generate/migrate work offline.
import "dotenv/config";
import fs from "node:fs";
import { defineConfig } from "prisma/config";
import { PrismaLibSQL } from "@prisma/adapter-libsql";

// The default SQLite file lives in the git-ignored .data/ folder; the schema's env("DATABASE_URL") must resolve.
const DEFAULT_DATABASE_URL = "file:./.data/chatty-kg.db";
if (!process.env.DATABASE_URL) process.env.DATABASE_URL = DEFAULT_DATABASE_URL;
fs.mkdirSync(".data", { recursive: true });

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  async adapter() {
    return new PrismaLibSQL({ url: process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL });
  },
});
