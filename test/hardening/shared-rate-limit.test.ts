// Two server processes on one database count one rate limit (RATE_LIMIT_STORE=database; the default on PostgreSQL):
// a session's 21st run in a minute is refused whichever process gets it, with 429 + Retry-After.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

let tmp: TempDb;
const processes: ChildProcess[] = [];
const ports: number[] = [];

async function startServer(env: Record<string, string>): Promise<number> {
  const child = spawn(process.execPath, ["--import", "tsx", "--conditions=react-server", "lib/server/testing/limit-server.ts"], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  processes.push(child);
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), "line"), once(child, "exit").then(() => { throw new Error("limit server exited before listening"); })])) as [string];
  return Number(line);
}

beforeAll(async () => {
  tmp = await createTempDb("chatty-kg-shared-limit-");
  const env = { DATABASE_URL: tmp.url, RATE_LIMIT_STORE: "database", RATE_LIMIT_SESSION_PER_MINUTE: "20", RATE_LIMIT_GLOBAL_PER_MINUTE: "300" };
  ports.push(...(await Promise.all([startServer(env), startServer(env)])));
}, 60_000);

afterAll(async () => {
  for (const p of processes) p.kill();
  await tmp?.close();
});

const acquire = (port: number, session: string) => fetch(`http://127.0.0.1:${port}/acquire?session=${encodeURIComponent(session)}`, { method: "POST", signal: AbortSignal.timeout(10_000) });

describe(`shared rate limit (${process.env.TEST_DB_DIALECT === "postgres" ? "PostgreSQL" : "SQLite"})`, () => {
  it("a session's 21st run in a minute is refused no matter which of two processes gets it", async () => {
    const [a, b] = ports;
    // 20 runs spread over both processes (concurrently within each pair): all allowed
    for (let i = 0; i < 10; i++) {
      const rs = await Promise.all([acquire(a, "browser-1"), acquire(b, "browser-1")]);
      expect(rs.map((r) => r.status)).toEqual([200, 200]);
    }
    for (const port of [a, b]) {
      const r = await acquire(port, "browser-1");
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect((await r.json()).error).toMatchObject({ code: "rate_limited", details: { scope: "session", limitPerMinute: 20 } });
    }
    // another browser still gets through on either process
    expect((await acquire(b, "browser-2")).status).toBe(200);
    expect((await acquire(a, "browser-2")).status).toBe(200);
  });
});
