-- CreateTable
CREATE TABLE "Experience" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "kgKey" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "sparql" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sessionId" TEXT,
    "turnId" TEXT,
    "dataset" TEXT,
    "itemId" TEXT,
    "split" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Experience_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Experience_turnId_key" ON "Experience"("turnId");

-- CreateIndex
CREATE INDEX "Experience_kgKey_idx" ON "Experience"("kgKey");

-- CreateIndex
CREATE UNIQUE INDEX "Experience_kgKey_dataset_itemId_key" ON "Experience"("kgKey", "dataset", "itemId");

