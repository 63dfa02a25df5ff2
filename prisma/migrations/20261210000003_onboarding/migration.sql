-- CreateTable
CREATE TABLE "OnboardingJob" (
    "kgKey" TEXT NOT NULL PRIMARY KEY,
    "id" TEXT NOT NULL,
    "kgName" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "phase" TEXT NOT NULL,
    "done" INTEGER NOT NULL DEFAULT 0,
    "total" INTEGER NOT NULL DEFAULT 0,
    "finishedPhases" JSONB NOT NULL,
    "trigger" TEXT NOT NULL,
    "contentHash" TEXT NOT NULL,
    "sessionId" TEXT,
    "queries" INTEGER NOT NULL DEFAULT 0,
    "candidates" INTEGER NOT NULL DEFAULT 0,
    "examples" INTEGER NOT NULL DEFAULT 0,
    "skipped" JSONB NOT NULL,
    "error" JSONB,
    "profile" JSONB,
    "startedAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "finishedAt" DATETIME
);

-- CreateTable
CREATE TABLE "KgNotes" (
    "kgKey" TEXT NOT NULL PRIMARY KEY,
    "derived" TEXT NOT NULL,
    "text" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Experience" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kgKey" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "sparql" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "shape" TEXT,
    "template" TEXT,
    "promoted" BOOLEAN NOT NULL DEFAULT false,
    "meta" JSONB,
    "sessionId" TEXT,
    "turnId" TEXT,
    "dataset" TEXT,
    "itemId" TEXT,
    "split" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Experience_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Experience" ("createdAt", "dataset", "id", "itemId", "kgKey", "question", "sessionId", "source", "sparql", "split", "turnId") SELECT "createdAt", "dataset", "id", "itemId", "kgKey", "question", "sessionId", "source", "sparql", "split", "turnId" FROM "Experience";
DROP TABLE "Experience";
ALTER TABLE "new_Experience" RENAME TO "Experience";
CREATE UNIQUE INDEX "Experience_turnId_key" ON "Experience"("turnId");
CREATE INDEX "Experience_kgKey_idx" ON "Experience"("kgKey");
CREATE INDEX "Experience_kgKey_source_idx" ON "Experience"("kgKey", "source");
CREATE UNIQUE INDEX "Experience_kgKey_dataset_itemId_key" ON "Experience"("kgKey", "dataset", "itemId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "OnboardingJob_id_key" ON "OnboardingJob"("id");

