// `npm run db:migrate`: applies the migrations to DATABASE_URL's database (default SQLite .data/chatty-kg.db);
// scripts/db/migrate.ts does the work.
import "dotenv/config";
import { applyMigrations } from "./migrate";

const outcome = await applyMigrations();
if (outcome.ok) console.log(outcome.message);
else console.error(`db:migrate: ${outcome.message}`);
process.exit(outcome.ok ? 0 : 1);
