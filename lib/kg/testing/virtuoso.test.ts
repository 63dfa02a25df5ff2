// The throwaway Virtuoso: its ini rewrite (always), and with Virtuoso installed: start, bulk load, index, and every way it stops.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "@/lib/errors";
import { openKg } from "@/lib/kg/open-kg";
import { virtuosoSkip, virtuosoSuite } from "@/test/helpers/virtuoso";
import { rewriteIni, startVirtuoso, throwawayIni, type VirtuosoServer } from "./virtuoso";

const PACKAGED_LIKE = `[Database]
DatabaseFile			= /var/lib/virtuoso-opensource-7/db/virtuoso.db
ErrorLogFile			= /var/lib/virtuoso-opensource-7/db/virtuoso.log
;Striping = 1

[Parameters]
ServerPort			= 1111
DirsAllowed			= ., /usr/share/virtuoso-opensource-7/vad
IndexTreeMaps = 256
IndexTreeMaps = 64

[HTTPServer]
ServerPort			= 8890

[Plugins]
LoadPath = /usr/lib/x86_64-linux-gnu/virtuoso-opensource-7/hosting
Load1 = plain, wikiv
`;

describe("rewriteIni / throwawayIni", () => {
  it("moves every file into the folder, binds both ports to 127.0.0.1 and drops the plugins", () => {
    const ini = throwawayIni(PACKAGED_LIKE, "/tmp/x", 4111, 4890, 20_000);
    expect(ini).toContain("DatabaseFile = /tmp/x/virtuoso.db");
    expect(ini).toContain("ErrorLogFile = /tmp/x/virtuoso.log");
    expect(ini).toMatch(/\[Parameters\][^[]*ServerPort = 127\.0\.0\.1:4111/);
    expect(ini).toMatch(/\[HTTPServer\][^[]*ServerPort = 127\.0\.0\.1:4890/);
    expect(ini).toContain("DirsAllowed = ., /tmp/x");
    expect(ini).toContain("NumberOfBuffers = 20000");
    expect(ini).not.toMatch(/Load1|\/var\/lib\/virtuoso/);
    expect(ini).toContain("LoadPath"); // untouched keys stay
  });

  it("sets a repeated key once, keeps comments, and adds missing keys and sections", () => {
    const out = rewriteIni(PACKAGED_LIKE, { Parameters: { IndexTreeMaps: "8", NewKey: "1" }, Extra: { A: "b" } });
    expect(out.match(/IndexTreeMaps/g)).toHaveLength(1);
    expect(out).toContain("IndexTreeMaps = 8");
    expect(out).toMatch(/\[Parameters\][^[]*NewKey = 1/);
    expect(out).toContain(";Striping = 1");
    expect(out).toMatch(/\[Extra\]\nA = b/);
  });
});

async function refused(url: string): Promise<boolean> {
  try {
    await fetch(url, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch {
    return true;
  }
}

async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 250));
  }
  return check();
}

describe.skipIf(virtuosoSkip)(virtuosoSuite("startVirtuoso"), () => {
  let v: VirtuosoServer;
  beforeAll(async () => {
    v = await startVirtuoso();
  });
  afterAll(async () => v?.stop());

  it("serves SPARQL on a loopback port from its own temp folder, with the dba password changed", async () => {
    expect(v.sparqlUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sparql$/);
    expect(v.dir.startsWith(os.tmpdir())).toBe(true);
    expect(existsSync(path.join(v.dir, "virtuoso.db"))).toBe(true);
    const login = spawn("isql-vt", [`127.0.0.1:${v.sqlPort}`, "dba", "dba", "exec=select 1"], { stdio: ["ignore", "pipe", "pipe"] });
    let err = "";
    login.stderr.on("data", (d: Buffer) => (err += d.toString()));
    await new Promise((r) => login.on("close", r));
    expect(err).toMatch(/Bad login/);
  });

  it("bulk-loads the sample KG into a named graph: the same triples as the embedded store", async () => {
    const [loaded] = await v.load([{ path: "kg/sample.ttl", graph: "urn:test:sample" }]);
    const embedded = await openKg({ kind: "sample" });
    try {
      expect(loaded).toEqual({ graph: "urn:test:sample", triples: embedded.info.triples });
    } finally {
      await embedded.close();
    }
    const remote = await openKg({ kind: "endpoint", url: v.endpoint("urn:test:sample") });
    expect(await remote.ask("ASK { <http://example.org/chatty-kg/resource/Harry_Potter> ?p ?o }")).toBe(true);
  });

  it("builds the free-text index that bif:contains needs", async () => {
    const kg = await openKg({ kind: "endpoint", url: v.endpoint("urn:test:sample") });
    const q = `PREFIX bif: <bif:> SELECT ?s WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l . ?l bif:contains '"Radcliffe"' }`;
    await v.buildTextIndex();
    const rows = (await kg.select(q)).results.bindings.map((b) => b.s.value);
    expect(rows).toContain("http://example.org/chatty-kg/resource/Daniel_Radcliffe");
  });

  it("refuses a file that is not RDF, naming it, and loads nothing from it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "chatty-virt-bad-"));
    const bad = path.join(dir, "broken.ttl");
    writeFileSync(bad, "<http://ex.org/a> <http://ex.org/b> .\n");
    const e = await v.load([{ path: bad, graph: "urn:test:bad" }]).catch((err: unknown) => err);
    expect(isAppError(e, "kg_load")).toBe(true);
    expect((e as Error).message).toMatch(/broken\.ttl/);
    const missing = await v.load([{ path: path.join(dir, "nope.ttl"), graph: "urn:test:bad" }]).catch((err: unknown) => err);
    expect(isAppError(missing, "not_found")).toBe(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it("stop() ends the server and deletes its folder", async () => {
    const w = await startVirtuoso();
    await w.stop();
    expect(existsSync(w.dir)).toBe(false);
    expect(await refused(w.sparqlUrl)).toBe(true);
  });

  it("stops by itself when its max lifetime ends", async () => {
    const w = await startVirtuoso({ maxLifetimeS: 15 });
    try {
      expect(await refused(w.sparqlUrl)).toBe(false);
      expect(await waitFor(async () => !existsSync(w.dir) && (await refused(w.sparqlUrl)), 45_000)).toBe(true);
    } finally {
      await w.stop();
    }
  }, 90_000);

  it("stops when the process that started it is killed (SIGKILL: no exit handler runs)", async () => {
    const script = `
      import { startVirtuoso } from "./lib/kg/testing/virtuoso.ts";
      const v = await startVirtuoso();
      console.log(JSON.stringify({ dir: v.dir, url: v.sparqlUrl }));
      setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    const line = await new Promise<string>((resolve, reject) => {
      let out = "";
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
      child.on("exit", (code) => reject(new Error(`child exited ${code} before starting Virtuoso`)));
    });
    const { dir, url } = JSON.parse(line) as { dir: string; url: string };
    expect(await refused(url)).toBe(false);
    child.kill("SIGKILL");
    expect(await waitFor(async () => !existsSync(dir) && (await refused(url)), 30_000)).toBe(true);
  }, 120_000);
});
