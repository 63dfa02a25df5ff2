-- CreateTable
CREATE TABLE "TurnAttempt" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "turnId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" TEXT NOT NULL,
    "answer" JSONB,
    "naturalAnswer" TEXT,
    "source" TEXT,
    "standaloneQuestion" TEXT,
    "error" JSONB,
    "trace" JSONB NOT NULL,
    "stats" JSONB,
    "config" JSONB NOT NULL,
    "sparql" JSONB,
    "feedback" INTEGER,
    "change" JSONB,
    "snapshot" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" DATETIME,
    CONSTRAINT "TurnAttempt_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (plain ADD COLUMNs: the Turn table and its TraceEvent rows are not copied)
ALTER TABLE "Turn" ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 1;
ALTER TABLE "Turn" ADD COLUMN "change" JSONB;
ALTER TABLE "Turn" ADD COLUMN "snapshot" JSONB;

-- CreateIndex
CREATE UNIQUE INDEX "TurnAttempt_turnId_attempt_key" ON "TurnAttempt"("turnId", "attempt");

