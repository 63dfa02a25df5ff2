-- CreateTable
CREATE TABLE "Experience" (
    "id" TEXT NOT NULL,
    "kgKey" TEXT NOT NULL,
    "question" TEXT NOT NULL,
    "sparql" TEXT NOT NULL,
    "source" TEXT NOT NULL,
    "sessionId" TEXT,
    "turnId" TEXT,
    "dataset" TEXT,
    "itemId" TEXT,
    "split" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Experience_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Experience_turnId_key" ON "Experience"("turnId");

-- CreateIndex
CREATE INDEX "Experience_kgKey_idx" ON "Experience"("kgKey");

-- CreateIndex
CREATE UNIQUE INDEX "Experience_kgKey_dataset_itemId_key" ON "Experience"("kgKey", "dataset", "itemId");

-- AddForeignKey
ALTER TABLE "Experience" ADD CONSTRAINT "Experience_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

