-- AlterTable
ALTER TABLE "Experience" ADD COLUMN     "meta" JSONB,
ADD COLUMN     "promoted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "shape" TEXT,
ADD COLUMN     "template" TEXT;

-- CreateTable
CREATE TABLE "OnboardingJob" (
    "kgKey" TEXT NOT NULL,
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
    "startedAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "OnboardingJob_pkey" PRIMARY KEY ("kgKey")
);

-- CreateTable
CREATE TABLE "KgNotes" (
    "kgKey" TEXT NOT NULL,
    "derived" TEXT NOT NULL,
    "text" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "KgNotes_pkey" PRIMARY KEY ("kgKey")
);

-- CreateIndex
CREATE UNIQUE INDEX "OnboardingJob_id_key" ON "OnboardingJob"("id");

-- CreateIndex
CREATE INDEX "Experience_kgKey_source_idx" ON "Experience"("kgKey", "source");

