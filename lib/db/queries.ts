// All database reads and writes of the app, always scoped to a browser session, bound to one Prisma client: one file
// per subject (conversations, turns, attempts, the experience pool, KG sources), shared row checks in rows.ts.
import "server-only";
import { driverOf, getDb, type PrismaClient } from "./client";
import { rawSql } from "./raw-sql";
import { attemptQueries } from "./attempt-queries";
import { conversationQueries } from "./conversation-queries";
import { experienceQueries } from "./experience-queries";
import { kgSourceQueries } from "./kg-source-queries";
import { onboardingQueries } from "./onboarding-queries";
import { shareQueries } from "./share-queries";
import { turnQueries } from "./turn-queries";

export type { ShareRecord } from "./share-queries";
export type { AttemptBase, AttemptRecord, ConversationRecord, ConversationSummary, DialogueRecord, ExperienceRecord, KgSourceRecord, TurnRecord } from "./records";

/** The query functions bound to one Prisma client (the app passes getDb(); tests pass a client on a temp file). */
export function makeQueries(db: PrismaClient) {
  const sql = driverOf(db);
  const ctx = { db, sql, raw: rawSql(sql.dialect) };
  const turns = turnQueries(ctx);
  const conversations = conversationQueries(ctx);
  return {
    ...conversations,
    ...shareQueries(ctx, conversations.getConversation),
    ...turns,
    ...attemptQueries(ctx, turns.getTurn),
    ...experienceQueries(ctx),
    ...kgSourceQueries(ctx),
    onboarding: onboardingQueries(ctx),
  };
}

export type Queries = ReturnType<typeof makeQueries>;

let appQueries: Queries | undefined;

/** The query functions on the process-wide client (DATABASE_URL). */
export function getQueries(): Queries {
  appQueries ??= makeQueries(getDb());
  return appQueries;
}
