-- AlterTable
ALTER TABLE "Turn" ADD COLUMN     "attempt" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "change" JSONB,
ADD COLUMN     "snapshot" JSONB;

-- CreateTable
CREATE TABLE "TurnAttempt" (
    "id" TEXT NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "TurnAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "TurnAttempt_turnId_attempt_key" ON "TurnAttempt"("turnId", "attempt");

-- AddForeignKey
ALTER TABLE "TurnAttempt" ADD CONSTRAINT "TurnAttempt_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn"("id") ON DELETE CASCADE ON UPDATE CASCADE;

