// Load test against a production build: mock LLM + the app (scripts/serve.mjs, --processes of them) on 127.0.0.1, N
// concurrent Figure-1 conversations, turn latency percentiles vs. a single-user baseline, lost-turn check, the server's
// CPU per turn, and /api/health latency under load.
//
// Requires `npm run build` first (this script builds nothing). Usage:
//   npm run load -- [--conversations 20] [--turns 5] [--llm-latency-ms 200] [--duration-s 120] [--triples 1000000]
//                   [--skip-kg] [--rules test/fixtures/e2e/figure1-rules.json] [--postgres <server URL>] [--processes 1]
//                   [--password <shared password>]
// --postgres: the app's database is a fresh database on that PostgreSQL server (dropped at the end) instead of SQLite.
// --processes N (N > 1): the burst runs twice, on one server process and on N (each on a fresh database), and both
//   throughputs are printed. --password (or AUTH_PASSWORD): the server requires sign-in; every simulated browser signs
//   in through Auth.js first (not timed) and keeps its cookies.
// Everything it starts listens on 127.0.0.1 only and is stopped at the end; data goes to .data/load/, the generated
// upload file to the generated-KG cache (scripts/gen-triples.ts generatedDir(), under the system temp folder).
// LOAD_NODE_ARGS passes flags to the server's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, openAsBlob, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createTempPostgresDb } from "@/lib/db/testing/postgres";
import { cpuPerTurn, sampleCpu } from "./load/cpu";
import { newBrowser, runConversation, storedDone, type ConversationRun, type Visit } from "./load/conversations";
import { healthSummary, pct, probeHealth, r1, waitForHealth } from "./load/health";
import { generatedDir } from "./gen-triples";
import { loadRules, rulesResponder, startMockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import type { ReplyValue } from "@/lib/llm/testing/replies";

const ROOT = process.cwd();
const DATA = path.join(ROOT, ".data/load");
const QUESTIONS = [
  "Who is the author of Harry Potter?",
  "When was its first movie released?",
  "Who played the main character?",
  "When was he born?",
  "What else has he starred in?",
];

interface Options {
  conversations: number;
  turns: number;
  llmLatencyMs: number;
  durationS: number;
  triples: number;
  skipKg: boolean;
  rules: string;
  postgres?: string;
  processes: number;
  /** the shared password when sign-in is on */
  password?: string;
}

function parseArgs(argv: string[]): Options {
  const get = (name: string, dflt: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 && argv[i + 1] !== undefined ? argv[i + 1] : dflt;
  };
  const num = (name: string, dflt: number, max: number) => {
    const n = Number(get(name, String(dflt)));
    if (!Number.isFinite(n) || n < 0 || n > max) throw new Error(`--${name} must be a number between 0 and ${max}`);
    return n;
  };
  return {
    conversations: Math.max(1, Math.floor(num("conversations", 20, 500))),
    turns: Math.max(1, Math.floor(num("turns", 5, QUESTIONS.length))),
    llmLatencyMs: num("llm-latency-ms", 200, 60_000),
    durationS: num("duration-s", 120, 3600),
    triples: Math.floor(num("triples", 1_000_000, 20_000_000)),
    skipKg: argv.includes("--skip-kg"),
    rules: get("rules", "test/fixtures/e2e/figure1-rules.json"),
    postgres: argv.includes("--postgres") ? get("postgres", "") || undefined : undefined,
    processes: Math.max(1, Math.floor(num("processes", 1, 16))),
    password: argv.includes("--password") ? get("password", "") : process.env.AUTH_PASSWORD?.trim() || undefined,
  };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

interface App {
  visit: Visit;
  pid: number;
  dbLabel: string;
  mockUrl: string;
  serverErr(): string;
  stop(): Promise<void>;
}

/** Mock LLM, a fresh database and the app as `processes` server processes on a free loopback port, answering health. */
async function startApp(opts: Options, processes: number, stamp: string): Promise<App> {
  const dbFile = path.join(DATA, `load-${stamp}-p${processes}.db`);
  const pg = opts.postgres ? await createTempPostgresDb(opts.postgres, "chatty_load") : undefined;
  const databaseUrl = pg ? pg.url : `file:${dbFile}`;
  const dbLabel = pg ? `PostgreSQL ${new URL(pg.url).host}${new URL(pg.url).pathname}` : path.relative(ROOT, dbFile);

  // mock LLM: the Figure-1 rules, each reply after the configured latency
  const rules = rulesResponder(loadRules(path.resolve(ROOT, opts.rules)));
  const mock = await startMockOpenAIServer({
    port: 0,
    apiKey: "load-test-key",
    responder: async (input) => ({ delayMs: opts.llmLatencyMs, then: (await rules(input)) as ReplyValue }) as ReplyValue,
  });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    SESSION_SECRET: `load-${stamp}-${Math.random().toString(36).slice(2)}`,
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: mock.baseURL,
    LLM_MODEL: "mock",
    LLM_API_KEY: "load-test-key",
    OPENAI_API_KEY: "",
    GOOGLE_GENERATIVE_AI_API_KEY: "",
    KG_DEFAULT: "sample",
    KG_UPLOAD_MAX_MB: "1024",
    // sign-in on exactly when a password is given (an AUTH_PASSWORD of the caller's shell is not inherited otherwise)
    AUTH_PASSWORD: opts.password ?? "",
    AUTH_SECRET: opts.password !== undefined ? `load-auth-${stamp}-${Math.random().toString(36).slice(2)}-0123456789abcdef` : "",
  };
  const migrate = spawnSync("npx", ["tsx", "scripts/db/deploy.ts"], { env, stdio: "ignore" });
  if (migrate.status !== 0) throw new Error("npm run db:migrate failed");

  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // LOAD_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server (NODE_OPTIONS refuses --cpu-prof)
  const nodeArgs = (process.env.LOAD_NODE_ARGS ?? "").split(/\s+/).filter(Boolean);
  // scripts/serve.mjs: `next start` as SERVER_PROCESSES processes sharing the port
  const server = spawn(process.execPath, [...nodeArgs, path.join(ROOT, "scripts/serve.mjs"), "-H", "127.0.0.1", "-p", String(port)], {
    env: { ...env, SERVER_PROCESSES: String(processes) },
    stdio: ["ignore", "ignore", "pipe"],
    detached: true,
  });
  let serverErr = "";
  server.stderr?.on("data", (d: Buffer) => void (serverErr = (serverErr + d.toString()).slice(-4000)));
  const stop = async () => {
    try {
      if (server.pid && server.exitCode === null) {
        const exited = new Promise((r) => server.once("exit", r));
        process.kill(-server.pid, "SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
      }
    } catch {
      // already gone
    }
    await mock.close();
    await pg?.drop().catch(() => {});
  };
  try {
    await waitForHealth(base, server);
  } catch (e) {
    await stop();
    throw new Error(`${e instanceof Error ? e.message : String(e)}${serverErr ? `\nserver stderr (tail):\n${serverErr}` : ""}`);
  }
  return { visit: { base, password: opts.password }, pid: server.pid!, dbLabel, mockUrl: mock.baseURL, serverErr: () => serverErr, stop };
}

/** Warm-up, the single-user baseline, then N concurrent conversations; prints and returns the figures. */
async function burst(app: App, opts: Options, processes: number, deadline: AbortSignal) {
  const { visit } = app;
  // warm-up (first compile of routes, KG open, similarity model load): one conversation per server process, a few at once
  const warmRuns = await Promise.all(Array.from({ length: Math.max(1, processes) * 2 }, () => runConversation(visit, QUESTIONS.slice(0, opts.turns), deadline)));
  const warmErrors = warmRuns.flatMap((w) => w.outcomes.filter((o) => !o.ok));
  if (warmErrors.length) console.warn(`warm-up errors: ${warmErrors.map((o) => o.error).join(" | ")}`);
  const baselineRuns: ConversationRun[] = [];
  const cpuBase0 = sampleCpu(app.pid);
  for (let i = 0; i < 2; i++) baselineRuns.push(await runConversation(visit, QUESTIONS.slice(0, opts.turns), deadline));
  const baseMs = baselineRuns.flatMap((r) => r.outcomes.filter((o) => o.ok).map((o) => o.ms));
  const baseCpu = cpuPerTurn(cpuBase0, sampleCpu(app.pid), baseMs.length);
  const baseline = { turns: baseMs.length, p50: r1(pct(baseMs, 50)), p95: r1(pct(baseMs, 95)), mean: r1(baseMs.reduce((a, b) => a + b, 0) / baseMs.length), cpuPerTurnMs: baseCpu };
  console.log(`baseline (1 user): ${baseline.turns} turns, p50 ${baseline.p50} ms, p95 ${baseline.p95} ms${baseCpu ? `; server CPU per turn ${baseCpu.mainMs} ms main thread(s), ${baseCpu.allMs} ms all threads` : ""}`);

  // N concurrent conversations, each asking its turns in order
  const health = probeHealth(visit.base);
  const loadAvgBefore = os.loadavg()[0];
  const cpu0 = sampleCpu(app.pid);
  const ownCpu0 = process.cpuUsage();
  const t0 = performance.now();
  const runs = await Promise.all(Array.from({ length: opts.conversations }, () => runConversation(visit, QUESTIONS.slice(0, opts.turns), deadline)));
  const wallS = (performance.now() - t0) / 1000;
  const cpu1 = sampleCpu(app.pid);
  const ownCpu = process.cpuUsage(ownCpu0);
  const loadAvgAfter = os.loadavg()[0];
  const healthLoad = healthSummary(await health.stop());
  const all = runs.flatMap((r) => r.outcomes);
  const okMs = all.filter((o) => o.ok).map((o) => o.ms);
  const errors = all.filter((o) => !o.ok);
  const asked = runs.reduce((n, r) => n + r.asked.length, 0);
  const stored = (await Promise.all(runs.map(storedDone))).reduce((a, b) => a + b, 0);
  const p95 = pct(okMs, 95);
  const load = {
    processes,
    signedIn: visit.password !== undefined,
    conversations: opts.conversations,
    turnsAsked: asked,
    turnsDone: okMs.length,
    errors: errors.length,
    errorSamples: [...new Set(errors.map((e) => e.error))].slice(0, 5),
    wallS: r1(wallS),
    throughputTurnsPerS: r1(okMs.length / wallS),
    p50: r1(pct(okMs, 50)),
    p95: r1(p95),
    p99: r1(pct(okMs, 99)),
    p95OverBaseline: Math.round((p95 / baseline.p95) * 100) / 100,
    storedDone: stored,
    lostTurns: asked - stored,
    stoppedByDeadline: deadline.aborted,
    health: healthLoad,
    // the server's CPU per finished turn (main threads: where JS runs; all threads adds the KG worker, GC, libuv)
    cpuPerTurnMs: cpuPerTurn(cpu0, cpu1, okMs.length),
    serverCpuCoresUsed: cpu0 && cpu1 ? r1((cpu1.allMs - cpu0.allMs) / 1000 / wallS) : null,
    serverProcesses: cpu1?.processes ?? null,
    // CPU ms of each server process during the burst: how evenly the work was spread
    perProcessCpuMs: cpu0 && cpu1 ? Object.fromEntries(Object.entries(cpu1.perProcess).map(([pid, ms]) => [pid, Math.round(ms - (cpu0.perProcess[Number(pid)] ?? 0))])) : null,
    // this script (the clients, the mock LLM, the health probe): it shares the cores with the server
    loadGeneratorCores: r1((ownCpu.user + ownCpu.system) / 1e6 / wallS),
    // the machine's 1-minute load average (2 cores here): other jobs compete for the same cores
    machineLoadAvg: { before: r1(loadAvgBefore), after: r1(loadAvgAfter), cores: os.cpus().length },
  };
  console.log(
    `load: ${opts.conversations} conversations x ${opts.turns} turns: ${load.turnsDone}/${asked} done, ${load.errors} errors, ` +
      `${load.throughputTurnsPerS} turns/s, p50 ${load.p50} / p95 ${load.p95} / p99 ${load.p99} ms, p95/baseline ${load.p95OverBaseline}, ` +
      `stored done ${stored}/${asked} (lost ${load.lostTurns}); health p95 ${healthLoad.p95} ms, max ${healthLoad.max} ms`,
  );
  console.log(
    `server CPU per turn: ${load.cpuPerTurnMs ? `${load.cpuPerTurnMs.mainMs} ms main thread(s), ${load.cpuPerTurnMs.allMs} ms all threads` : "n/a"}` +
      ` (${load.serverCpuCoresUsed ?? "?"} cores busy, ${load.serverProcesses ?? "?"} processes${load.perProcessCpuMs && Object.keys(load.perProcessCpuMs).length > 1 ? ` ${JSON.stringify(Object.values(load.perProcessCpuMs))} ms` : ""}; load generator ${load.loadGeneratorCores} cores); machine load avg ${load.machineLoadAvg.before} → ${load.machineLoadAvg.after} on ${load.machineLoadAvg.cores} cores`,
  );
  if (errors.length) console.log(`error samples: ${load.errorSamples.join(" | ")}`);
  return { baseline, load };
}

/** A big upload while health is probed, then a slow query the client abandons (the route's abort path must kill it). */
async function bigKg(app: App, opts: Options) {
  const file = path.join(generatedDir(), `gen-${opts.triples}.nt`);
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true });
    const gen = spawnSync("npx", ["tsx", "scripts/gen-triples.ts", file, String(opts.triples)], { stdio: "inherit" });
    if (gen.status !== 0) throw new Error("gen-triples failed");
  }
  const uploader = await newBrowser(app.visit);
  const form = new FormData();
  form.append("files", await openAsBlob(file), path.basename(file));
  form.append("name", `Generated ${opts.triples} triples`);
  const hUp = probeHealth(app.visit.base);
  const u0 = performance.now();
  const up = await uploader.fetch("/api/kg/upload", { method: "POST", body: form, signal: AbortSignal.timeout(15 * 60_000) });
  const upBody = (await up.json()) as { kg?: { id: string; triples?: number }; error?: { message: string } };
  const uploadMs = performance.now() - u0;
  const healthUpload = healthSummary(await hUp.stop());
  const upload = { status: up.status, triples: upBody.kg?.triples, fileMB: r1(statSync(file).size / 1e6), ms: Math.round(uploadMs), error: upBody.error?.message, health: healthUpload };
  console.log(`upload ${upload.fileMB} MB: HTTP ${up.status}, ${upBody.kg?.triples ?? "?"} triples in ${upload.ms} ms; health p95 ${healthUpload.p95} ms, max ${healthUpload.max} ms`);

  const hQ = probeHealth(app.visit.base);
  const q0 = performance.now();
  let slowStatus = "aborted by client after 5 s";
  try {
    const res = await uploader.fetch("/api/sparql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ kgId: upBody.kg?.id ?? "sample", query: "SELECT (COUNT(*) AS ?n) WHERE { ?a ?p ?b . ?c ?q ?d }" }),
      signal: AbortSignal.timeout(5_000),
    });
    slowStatus = `HTTP ${res.status}`;
    await res.text();
  } catch {
    // the expected end: the client gave up
  }
  await new Promise((r) => setTimeout(r, 1_000)); // keep probing while the server cleans up
  const healthSlow = healthSummary(await hQ.stop());
  const slowQuery = { outcome: slowStatus, ms: Math.round(performance.now() - q0), health: healthSlow };
  console.log(`slow SPARQL: ${slowStatus} after ${slowQuery.ms} ms; health p95 ${healthSlow.p95} ms, max ${healthSlow.max} ms`);
  return { upload, slowQuery };
}

const USAGE = `Usage: npm run load -- [--conversations 20] [--turns 5] [--llm-latency-ms 200] [--duration-s 120] [--triples 1000000]
                    [--skip-kg] [--rules test/fixtures/e2e/figure1-rules.json] [--postgres <server URL>] [--processes 1]
                    [--password <shared password>]
  Runs many Figure-1 conversations at once against a production build (npm run build first) with a mock LLM, and says
  whether the latency goal is met (docs/bench-and-load.md).
  --postgres    the app's database is a fresh database on that PostgreSQL server (dropped at the end)
  --processes   N > 1: the burst runs on one server process and on N, and both throughputs are printed
  --password    sign-in on: every simulated browser signs in first (default: AUTH_PASSWORD)
  --skip-kg     leave out the 1M-triple upload and the slow-query part`;

async function main(): Promise<void> {
  if (process.argv.includes("--help") || process.argv.includes("-h")) {
    console.log(USAGE);
    return;
  }
  const opts = parseArgs(process.argv.slice(2));
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!existsSync(path.join(ROOT, distDir, "BUILD_ID"))) {
    console.error(`No production build in ${distDir}/: run \`npm run build\` first (this script does not build).`);
    process.exit(2);
  }
  mkdirSync(DATA, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const deadline = AbortSignal.timeout(opts.durationS * 1000);
  const report: Record<string, unknown> = { options: { ...opts, password: opts.password === undefined ? undefined : "(set)" }, startedAt: new Date().toISOString(), loadAvgAtStart: os.loadavg() };
  console.log(`npm run load -- ${process.argv.slice(2).join(" ").replace(/(--password\s+)\S+/, "$1***")}  (machine load avg at start ${os.loadavg().map(r1).join(", ")} on ${os.cpus().length} cores)`);
  // with --processes N > 1 the same burst first on one process: the throughput N processes add on this machine
  const rounds = opts.processes > 1 ? [1, opts.processes] : [1];
  const bursts: Awaited<ReturnType<typeof burst>>[] = [];
  let current: App | undefined;
  process.on("SIGINT", () => void (current?.stop() ?? Promise.resolve()).then(() => process.exit(130)));
  try {
    for (const [i, processes] of rounds.entries()) {
      current = await startApp(opts, processes, stamp);
      try {
        console.log(`\nserver ${current.visit.base} (${processes} process(es), db ${current.dbLabel}${opts.password !== undefined ? ", sign-in on" : ""}), mock LLM ${current.mockUrl}, latency ${opts.llmLatencyMs} ms per LLM call`);
        bursts.push(await burst(current, opts, processes, deadline));
        if (i === rounds.length - 1 && !opts.skipKg) Object.assign(report, await bigKg(current, opts));
      } catch (e) {
        if (current.serverErr()) console.error(`server stderr (tail):\n${current.serverErr()}`);
        throw e;
      } finally {
        await current.stop();
      }
    }
    report.bursts = bursts;
    const { baseline, load } = bursts[bursts.length - 1];
    report.baseline = baseline;
    report.load = load;
    if (bursts.length > 1) {
      const [one, many] = bursts.map((b) => b.load);
      report.throughput = { oneProcess: one.throughputTurnsPerS, processes: many.processes, nProcesses: many.throughputTurnsPerS, ratio: Math.round((many.throughputTurnsPerS / one.throughputTurnsPerS) * 100) / 100 };
      console.log(`\nthroughput: 1 process ${one.throughputTurnsPerS} turns/s (p95 ${one.p95} ms), ${many.processes} processes ${many.throughputTurnsPerS} turns/s (p95 ${many.p95} ms): x${(report.throughput as { ratio: number }).ratio}`);
    }
    const goal = bursts.every((b) => b.load.errors === 0 && b.load.lostTurns === 0) && load.p95OverBaseline <= 1.5 && load.health.p95 < 50;
    report.goalMet = goal;
    // one line to compare runs: the goal's figures and how busy the machine was (others share its cores)
    console.log(
      `summary: p95/baseline ${load.p95OverBaseline}, errors ${bursts.map((b) => b.load.errors).join("/")}, lost ${bursts.map((b) => b.load.lostTurns).join("/")}, ` +
        `CPU per turn ${load.cpuPerTurnMs?.mainMs ?? "n/a"} ms main thread(s) / ${load.cpuPerTurnMs?.allMs ?? "n/a"} ms all threads, ` +
        `health p95 ${load.health.p95} ms (burst), ${opts.processes} server process(es)${opts.password !== undefined ? ", signed in" : ""}, machine load avg ${load.machineLoadAvg.before} → ${load.machineLoadAvg.after} on ${load.machineLoadAvg.cores} cores`,
    );
    console.log(`goal (0 errors, 0 lost, p95 <= 1.5x baseline, health p95 < 50 ms during the burst): ${goal ? "MET" : "NOT MET"}`);
  } catch (e) {
    console.error(`load test failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  } finally {
    const out = path.join(DATA, `results-${stamp}.json`);
    writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`results: ${path.relative(ROOT, out)}`);
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
