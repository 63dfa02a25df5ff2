// The SQLite client's connections under contention: the pragmas of a fresh connection while another connection holds
// the write lock (two server processes on one file), and several calls of one process at once (concurrent requests).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import { afterAll, describe, expect, it } from "vitest";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";
import { driverOf, withConnectionPragmas } from "./client";
import { createRateBucketStore } from "./rate-buckets";

const dirs: string[] = [];
const dbs: TempDb[] = [];
afterAll(async () => {
  for (const db of dbs) await db.close();
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

function tempUrl(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "chatty-kg-client-"));
  dirs.push(dir);
  return `file:${path.join(dir, "test.db")}`;
}

describe("SQLite connection pragmas", () => {
  it("a fresh connection waits while another holds the write lock of a database not yet in WAL mode (as migrations leave it)", async () => {
    const url = tempUrl();
    const other = createClient({ url });
    await other.execute("CREATE TABLE t (v TEXT)");
    expect((await other.execute("PRAGMA journal_mode")).rows[0].journal_mode).toBe("delete");
    // the other process's write transaction (in CI: the other server switching the file to WAL at the same moment)
    const tx = await other.transaction("write");
    await tx.execute("INSERT INTO t (v) VALUES ('theirs')");
    const committed = new Promise<void>((resolve) => setTimeout(() => void tx.commit().then(resolve), 300));
    const client = withConnectionPragmas(createClient({ url }));
    try {
      // switching to WAL needs the write lock and skips the busy handler: this failed at once with SQLITE_BUSY
      const rs = await client.execute("SELECT v FROM t");
      expect(rs.rows.map((r) => r.v)).toEqual(["theirs"]);
      expect((await client.execute("PRAGMA journal_mode")).rows[0].journal_mode).toBe("wal");
      expect((await client.execute("PRAGMA busy_timeout")).rows[0].timeout).toBe(10_000);
      expect((await client.execute("PRAGMA foreign_keys")).rows[0].foreign_keys).toBe(1);
    } finally {
      await committed;
      client.close();
      other.close();
    }
  });
});

describe("one process's calls at once", () => {
  it("concurrent transactions each get a connection with the pragmas and run one after another", async () => {
    const url = tempUrl();
    const client = withConnectionPragmas(createClient({ url }));
    try {
      await client.execute("CREATE TABLE t (v INTEGER)");
      const seen = await Promise.all(
        [1, 2, 3].map(async (v) => {
          const tx = await client.transaction("write");
          const pragmas = { busy: (await tx.execute("PRAGMA busy_timeout")).rows[0].timeout, fk: (await tx.execute("PRAGMA foreign_keys")).rows[0].foreign_keys };
          await tx.execute({ sql: "INSERT INTO t (v) VALUES (?)", args: [v] });
          await tx.commit();
          return pragmas;
        }),
      );
      expect(seen).toEqual([1, 2, 3].map(() => ({ busy: 10_000, fk: 1 })));
      expect((await client.execute("SELECT v FROM t ORDER BY v")).rows.map((r) => r.v)).toEqual([1, 2, 3]);
    } finally {
      client.close();
    }
  });

  it("a statement sent while a transaction of the same process is open runs after it, instead of failing", async () => {
    const url = tempUrl();
    const client = withConnectionPragmas(createClient({ url }));
    try {
      await client.execute("CREATE TABLE t (v TEXT)");
      const tx = await client.transaction("write");
      await tx.execute("INSERT INTO t (v) VALUES ('in the transaction')");
      // waits for the transaction (before: waited in SQLite's busy handler, blocking this thread, then SQLITE_BUSY)
      const outside = client.execute("INSERT INTO t (v) VALUES ('outside')");
      await new Promise((resolve) => setTimeout(resolve, 50));
      await tx.execute("INSERT INTO t (v) VALUES ('in the transaction, later')");
      await tx.commit();
      await outside;
      expect((await client.execute("SELECT v FROM t ORDER BY rowid")).rows.map((r) => r.v)).toEqual(["in the transaction", "in the transaction, later", "outside"]);
    } finally {
      client.close();
    }
  });

  it("two runs of one session acquired at once in one server process both count (the shared rate limit's take)", async () => {
    const tmp = await createTempDb("chatty-kg-client-");
    dbs.push(tmp);
    const store = createRateBucketStore(driverOf(tmp.db));
    const spec = [{ key: "run:session:s", capacity: 5 }];
    const outcomes = await Promise.all([0, 1, 2, 3, 4, 5].map(() => store.take(spec, 1_000)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    expect(outcomes.filter((o) => !o.ok)).toEqual([{ ok: false, index: 0, waitMs: expect.any(Number) }]);
  });
});
