-- CreateTable
CREATE TABLE "TraceEvent" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "turnId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "json" TEXT NOT NULL,
    CONSTRAINT "TraceEvent_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "Turn" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "TraceEvent_turnId_seq_key" ON "TraceEvent"("turnId", "seq");

