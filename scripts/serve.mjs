#!/usr/bin/env node
// Production server: the built Next app served by SERVER_PROCESSES processes (node:cluster) on one port.
//   node scripts/serve.mjs [-H 127.0.0.1] [-p 3000]      SERVER_PROCESSES=2 (default 1)
// One process is `next start`. Several share the listening socket (the primary hands out connections); each runs the
// whole app. State lives in the database and on disk, so any process can serve any request: KGs (uploads and
// endpoints) reopen from their database rows at first use in each process, sessions are signed cookies with one
// shared secret. Only the first process marks turns left "running" by a previous server as interrupted (a later one
// would cut off turns its siblings are running).
/* global process, console, setTimeout */
import cluster from "node:cluster";
import http from "node:http";
import { parseArgs } from "node:util";
import { withHealthProbe } from "./health-probe.mjs";
import { answerUnreadableRequests, MAX_HEADER_BYTES, withClientAddress } from "./http-limits.mjs";

const { values } = parseArgs({
  options: { hostname: { type: "string", short: "H", default: "127.0.0.1" }, port: { type: "string", short: "p", default: "3000" } },
});
const port = Number(values.port);
const hostname = values.hostname;
const processes = Math.max(1, Math.floor(Number(process.env.SERVER_PROCESSES ?? 1)) || 1);

async function serve() {
  const { default: next } = await import("next");
  const app = next({ dev: false, hostname, port, dir: process.cwd() });
  await app.prepare();
  const handle = app.getRequestHandler();
  // the liveness probe skips Next's router, so it does not queue behind turn work; long TEXT2SPARQL questions fit in a
  // request's URL, and an oversized request gets JSON (scripts/http-limits.mjs)
  const server = answerUnreadableRequests(
    http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, withClientAddress(withHealthProbe((req, res) => void handle(req, res)))),
  );
  server.keepAliveTimeout = 65_000;
  server.listen(port, hostname, () => {
    if (!cluster.isWorker) console.log(`Chatty-KG on http://${hostname}:${port}`);
  });
  const stop = () => server.close(() => process.exit(0));
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

if (processes === 1 || !cluster.isPrimary) {
  await serve();
} else {
  let stopping = false;
  const fork = (sweep) => {
    const worker = cluster.fork({ ...process.env, CHATTY_STARTUP_SWEEP: sweep ? "1" : "0" });
    worker.on("exit", (code, signal) => {
      if (stopping) return;
      console.error(`server process ${worker.process.pid} ended (${signal ?? code}); starting another`);
      fork(false);
    });
    return worker;
  };
  // the first process starts (and sweeps) before the others exist
  fork(true).once("listening", () => {
    for (let i = 1; i < processes; i++) fork(false);
    console.log(`Chatty-KG on http://${hostname}:${port} (${processes} processes)`);
  });
  const stopAll = () => {
    stopping = true;
    for (const w of Object.values(cluster.workers ?? {})) w?.process.kill("SIGTERM");
    setTimeout(() => process.exit(0), 10_000).unref();
    cluster.once("exit", () => {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    });
  };
  process.once("SIGTERM", stopAll);
  process.once("SIGINT", stopAll);
}
