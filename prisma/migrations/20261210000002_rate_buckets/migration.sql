-- CreateTable
CREATE TABLE "RateBucket" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "tokens" REAL NOT NULL,
    "at" REAL NOT NULL
);

-- CreateIndex
CREATE INDEX "RateBucket_at_idx" ON "RateBucket"("at");

