// A throwaway Virtuoso 7 (Debian virtuoso-opensource) on loopback ports with its own temp folder: bulk load + free-text index.
//
// Used by the Virtuoso tests, `npm run bench -- --virtuoso` and scripts/virtuoso.ts. The server runs under a bash
// guard that stops it and deletes its folder when the max lifetime ends, on TERM/INT/HUP, and (through setpriv's
// parent-death signal) when the Node process that started it dies; stop() does the same at once.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { AppError } from "@/lib/errors";

/** Where Debian's virtuoso-opensource-7 package puts its default configuration. */
export const PACKAGED_INI = ["/etc/virtuoso-opensource-7/virtuoso.ini", "/usr/share/virtuoso-opensource-7/virtuoso.ini"];
const SERVER_BIN = process.env.VIRTUOSO_BIN || "virtuoso-t";
const ISQL_BIN = process.env.VIRTUOSO_ISQL_BIN || "isql-vt";

/** Default max lifetime: long enough for a test file or a CK25 eval, short enough that a leak ends soon. */
export const DEFAULT_MAX_LIFETIME_S = 30 * 60;
/** 8 KB pages; 10,000 (the packaged value, ~80 MB) serves small KGs; ~170,000 per 2 GB of RAM for big loads. */
export const DEFAULT_BUFFERS = 10_000;

export interface VirtuosoOptions {
  /** seconds until the server stops by itself (default 30 min) */
  maxLifetimeS?: number;
  /** NumberOfBuffers (8 KB pages of cache) */
  buffers?: number;
  /** seconds to wait for the server to come online (default 90: a busy 2-core machine is slow) */
  startTimeoutS?: number;
  /** keep the data folder after stopping (for debugging) */
  keepDir?: boolean;
  log?: (line: string) => void;
}

export interface LoadedGraph {
  graph: string;
  triples: number;
}

export interface VirtuosoServer {
  /** the SPARQL endpoint over all graphs, e.g. http://127.0.0.1:41234/sparql */
  sparqlUrl: string;
  /** the endpoint restricted to one named graph (`?default-graph-uri=…`), as a user would point the app at it */
  endpoint(graph: string): string;
  httpPort: number;
  sqlPort: number;
  dir: string;
  /** seconds from spawn to "online" */
  startS: number;
  /** runs SQL through isql-vt as dba; throws with Virtuoso's message when a statement fails */
  isql(sql: string, timeoutMs?: number): Promise<string>;
  /** bulk-loads RDF files (ld_dir + rdf_loader_run), each into its graph; returns triple counts per graph */
  load(files: { path: string; graph: string }[], opts?: { loaders?: number; timeoutMs?: number }): Promise<LoadedGraph[]>;
  /** the free-text index over all literal objects that `bif:contains` needs */
  buildTextIndex(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

/** Why Virtuoso cannot run here (binaries or packaged ini missing), or undefined when it can. */
export function virtuosoMissing(): string | undefined {
  for (const bin of [SERVER_BIN, ISQL_BIN]) {
    if (spawnSync("sh", ["-c", `command -v "${bin}"`], { stdio: "ignore" }).status !== 0) {
      return `${bin} not found (apt-get install virtuoso-opensource)`;
    }
  }
  if (!PACKAGED_INI.some((f) => existsSync(f))) return `no packaged virtuoso.ini at ${PACKAGED_INI.join(" or ")}`;
  return undefined;
}

/**
 * Rewrites INI keys: `changes[section][key] = value` sets the key (added at the section's end when absent), `null`
 * removes it. Comments and other keys are kept.
 */
export function rewriteIni(text: string, changes: Record<string, Record<string, string | null>>): string {
  const out: string[] = [];
  const pending = new Map(Object.entries(changes).map(([s, kv]) => [s.toLowerCase(), new Map(Object.entries(kv))]));
  const spelled = new Map(Object.keys(changes).map((s) => [s.toLowerCase(), s]));
  let section: string | undefined;
  const flush = () => {
    const rest = section === undefined ? undefined : pending.get(section);
    if (!rest) return;
    for (const [k, v] of rest) if (v !== null) out.push(`${k} = ${v}`);
    pending.delete(section!);
  };
  for (const line of text.split("\n")) {
    const header = /^\s*\[([^\]]+)\]/.exec(line);
    if (header) {
      flush();
      section = header[1].trim().toLowerCase();
      out.push(line);
      continue;
    }
    const kv = /^\s*([A-Za-z0-9_]+)\s*=/.exec(line);
    const sectionChanges = section === undefined ? undefined : pending.get(section);
    if (kv && sectionChanges) {
      const key = [...sectionChanges.keys()].find((k) => k.toLowerCase() === kv[1].toLowerCase());
      if (key !== undefined) {
        const value = sectionChanges.get(key)!;
        if (value !== null) out.push(`${kv[1]} = ${value}`);
        // removed keys are dropped; a key set once is not set again if repeated (the packaged file repeats some)
        sectionChanges.set(key, null);
        continue;
      }
    }
    out.push(line);
  }
  flush();
  for (const [s, kv] of pending) {
    const lines = [...kv].filter(([, v]) => v !== null).map(([k, v]) => `${k} = ${v}`);
    if (lines.length) out.push(`[${spelled.get(s) ?? s}]`, ...lines);
  }
  return out.join("\n");
}

/** The packaged ini with every file in `dir`, both ports on 127.0.0.1 and no hosting plugins. */
export function throwawayIni(packaged: string, dir: string, sqlPort: number, httpPort: number, buffers = DEFAULT_BUFFERS): string {
  const f = (name: string) => path.join(dir, name);
  return rewriteIni(packaged, {
    Database: {
      DatabaseFile: f("virtuoso.db"),
      ErrorLogFile: f("virtuoso.log"),
      LockFile: f("virtuoso.lck"),
      TransactionFile: f("virtuoso.trx"),
      xa_persistent_file: f("virtuoso.pxa"),
    },
    TempDatabase: { DatabaseFile: f("virtuoso-temp.db"), TransactionFile: f("virtuoso-temp.trx") },
    Parameters: {
      ServerPort: `127.0.0.1:${sqlPort}`,
      // ld_dir reads only from allowed folders: RDF files are linked into <dir>/load
      DirsAllowed: `., ${dir}`,
      NumberOfBuffers: String(buffers),
      MaxDirtyBuffers: String(Math.floor(buffers * 0.75)),
    },
    HTTPServer: { ServerPort: `127.0.0.1:${httpPort}` },
    Plugins: { Load1: null, Load2: null, Load3: null, Load4: null, Load5: null },
  });
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

// The guard: runs the server and a lifetime timer in the background, stops the server (TERM, then KILL after 10 s) when
// either ends or on TERM/INT/HUP, then deletes the folder unless $4 is "keep". `wait` returns when a trapped signal arrives.
const GUARD = `
dir=$1; max=$2; ini=$3; keep=$4; bin=$5
"$bin" -f -c "$ini" > "$dir/stdout.log" 2>&1 & pid=$!
sleep "$max" & sleeper=$!
cleanup() {
  kill -TERM $pid 2>/dev/null
  for _ in $(seq 100); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
  kill -KILL $pid 2>/dev/null; wait $pid 2>/dev/null
  kill $sleeper 2>/dev/null
  [ "$keep" = keep ] || rm -rf "$dir"
  exit 0
}
trap cleanup TERM INT HUP
wait -n $pid $sleeper
cleanup
`;

function hasSetpriv(): boolean {
  return spawnSync("sh", ["-c", "setpriv --help 2>/dev/null | grep -q pdeathsig"], { stdio: "ignore" }).status === 0;
}

function runIsql(port: number, password: string, sql: string, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(ISQL_BIN, [`127.0.0.1:${port}`, "dba", password, "VERBOSE=OFF", "BANNER=OFF", "PROMPT=OFF", `exec=${sql}`], { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (err += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new AppError("kg_unavailable", `Cannot run ${ISQL_BIN}: ${e.message}`, { cause: e }));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      // isql exits 0 after a failed statement; its errors go to stderr as "*** Error <state>: … message"
      const failure = /\*\*\* Error[^\n]*/.exec(err);
      if (signal) reject(new AppError("kg_timeout", `Virtuoso SQL did not finish within ${timeoutMs} ms: ${sql.slice(0, 120)}`));
      else if (failure || code !== 0) reject(new AppError("kg_http", `Virtuoso SQL failed: ${(failure?.[0] ?? err.trim()) || `exit ${code}`} (${sql.slice(0, 120)})`));
      else resolve(out);
    });
  });
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Starts a throwaway Virtuoso and waits until its SPARQL endpoint answers. */
export async function startVirtuoso(options: VirtuosoOptions = {}): Promise<VirtuosoServer> {
  const missing = virtuosoMissing();
  if (missing) throw new AppError("kg_unavailable", `Virtuoso is not available: ${missing}.`);
  const log = options.log ?? (() => {});
  const packaged = readFileSync(PACKAGED_INI.find((f) => existsSync(f))!, "utf8");
  const dir = mkdtempSync(path.join(os.tmpdir(), "chatty-virtuoso-"));
  mkdirSync(path.join(dir, "load"));
  const [sqlPort, httpPort] = [await freePort(), await freePort()];
  const iniFile = path.join(dir, "virtuoso.ini");
  writeFileSync(iniFile, throwawayIni(packaged, dir, sqlPort, httpPort, options.buffers));
  const maxLifetimeS = Math.max(1, Math.round(options.maxLifetimeS ?? DEFAULT_MAX_LIFETIME_S));
  const guardArgs = ["-c", GUARD, "virtuoso-guard", dir, String(maxLifetimeS), iniFile, options.keepDir ? "keep" : "delete", SERVER_BIN];
  const t0 = performance.now();
  // setpriv --pdeathsig: the guard gets TERM when this process dies, however it dies (even SIGKILL)
  const child: ChildProcess = hasSetpriv()
    ? spawn("setpriv", ["--pdeathsig", "TERM", "bash", ...guardArgs], { cwd: dir, stdio: "ignore" })
    : spawn("bash", guardArgs, { cwd: dir, stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const onExit = () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
  };
  process.once("exit", onExit);
  const sparqlUrl = `http://127.0.0.1:${httpPort}/sparql`;
  let password = "dba";
  let stopped = false;

  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.removeListener("exit", onExit);
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
    }
    if (!options.keepDir) rmSync(dir, { recursive: true, force: true });
    log(`virtuoso stopped (${dir}${options.keepDir ? " kept" : " deleted"})`);
  };

  try {
    const deadline = Date.now() + (options.startTimeoutS ?? 90) * 1000;
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`virtuoso-t exited during start-up: ${logTail(dir)}`);
      if (Date.now() > deadline) throw new Error(`Virtuoso did not come online within ${options.startTimeoutS ?? 90} s: ${logTail(dir)}`);
      try {
        const res = await fetch(`${sparqlUrl}?query=${encodeURIComponent("ASK {}")}`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    // a random dba password: the SQL port is on loopback, but other local users could still reach it
    const next = randomBytes(12).toString("hex");
    await runIsql(sqlPort, password, `USER_SET_PASSWORD('dba', '${next}')`, 30_000);
    password = next;
  } catch (e) {
    await stop();
    throw new AppError("kg_unavailable", `Could not start Virtuoso: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
  const startS = Math.round((performance.now() - t0) / 100) / 10;
  log(`virtuoso online in ${startS} s: ${sparqlUrl} (sql 127.0.0.1:${sqlPort}, folder ${dir}, stops by itself after ${maxLifetimeS} s)`);

  const isql = (sql: string, timeoutMs = 120_000) => runIsql(sqlPort, password, sql, timeoutMs);
  let linked = 0;

  return {
    sparqlUrl,
    endpoint: (graph) => `${sparqlUrl}?default-graph-uri=${encodeURIComponent(graph)}`,
    httpPort,
    sqlPort,
    dir,
    startS,
    isql,
    async load(files, opts = {}) {
      const loadDir = path.join(dir, "load");
      for (const f of files) {
        if (!existsSync(f.path)) throw new AppError("not_found", `RDF file not found: ${f.path}`);
        // a link per file: ld_dir only reads folders named in DirsAllowed, and the data stays where it is
        const name = `${++linked}-${path.basename(f.path)}`;
        symlinkSync(path.resolve(f.path), path.join(loadDir, name));
        await isql(`ld_dir(${sqlString(loadDir)}, ${sqlString(name)}, ${sqlString(f.graph)})`);
      }
      const loaders = Math.max(1, Math.floor(opts.loaders ?? 1));
      const timeoutMs = opts.timeoutMs ?? 30 * 60_000;
      // parallel loaders each take files from the load list; one file is loaded by one loader
      await Promise.all(Array.from({ length: loaders }, () => isql("rdf_loader_run()", timeoutMs)));
      await isql("checkpoint", timeoutMs);
      const failed = Number((await isql("SELECT COUNT(*) FROM DB.DBA.LOAD_LIST WHERE ll_error IS NOT NULL")).trim());
      if (failed !== 0) {
        const which = await isql("SELECT ll_file, ll_error FROM DB.DBA.LOAD_LIST WHERE ll_error IS NOT NULL");
        throw new AppError("kg_load", `Virtuoso could not load ${failed} file(s): ${which.replace(/\s+/g, " ").trim().slice(0, 500)}`);
      }
      const counts: LoadedGraph[] = [];
      for (const graph of [...new Set(files.map((f) => f.graph))]) {
        const res = await fetch(`${sparqlUrl}?query=${encodeURIComponent(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`)}`, {
          headers: { accept: "application/sparql-results+json" },
          signal: AbortSignal.timeout(timeoutMs),
        });
        const json = (await res.json()) as { results: { bindings: { n: { value: string } }[] } };
        counts.push({ graph, triples: Number(json.results.bindings[0]?.n.value ?? 0) });
      }
      return counts;
    },
    async buildTextIndex(timeoutMs = 30 * 60_000) {
      // one rule for all graphs and predicates; the incremental indexer then indexes every existing literal object
      await isql("DB.DBA.RDF_OBJ_FT_RULE_ADD(null, null, 'chatty-kg')", timeoutMs);
      await isql("DB.DBA.VT_INC_INDEX_DB_DBA_RDF_OBJ()", timeoutMs);
    },
    stop,
  };
}

function logTail(dir: string): string {
  for (const f of ["virtuoso.log", "stdout.log"]) {
    try {
      const text = readFileSync(path.join(dir, f), "utf8").trim();
      if (text) return text.split("\n").slice(-5).join(" | ");
    } catch {
      // not written yet
    }
  }
  return "(no log)";
}
