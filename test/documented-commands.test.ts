// Every `npm run …` command the README and docs/ show, checked as a new user would meet it on a fresh checkout: the
// script exists; each command-line tool answers --help with a usage that names every flag the docs use with it; and
// the tools run for real on fixtures (each under 30 s) against a database that has never been migrated and a mock LLM.
// Scripts that start servers, build, or need Virtuoso are listed below with the reason they only get --help (or are
// run by another test / CI). A documented script in neither list fails the test.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";

const ROOT = process.cwd();
const DOCS = ["README.md", ...readdirSync(path.join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const SCRIPTS = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> }).scripts;
const SHARED = path.resolve(ROOT, "../shared/data");

/** Documented commands: `npm run [-s|--silent] <script> [-- args]`, in code blocks and inline code. */
function documented(): { script: string; args: string; file: string }[] {
  const out: { script: string; args: string; file: string }[] = [];
  for (const file of DOCS) {
    const text = readFileSync(path.join(ROOT, file), "utf8").replace(/\\\n\s*/g, " ");
    for (const m of text.matchAll(/npm run (?:-s |--silent )?([a-z0-9:-]+)((?: --(?: [^`\n|]*)?)?)/g)) out.push({ script: m[1], args: m[2].replace(/^ --/, "").trim(), file });
  }
  return out;
}
const COMMANDS = documented();
const flagsOf = (script: string) => [...new Set(COMMANDS.filter((c) => c.script === script).flatMap((c) => [...c.args.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((m) => m[0])))];

/** Command-line tools: --help must print a usage naming the flags the docs use. */
const CLIS = ["ask", "eval", "bench", "load", "experience", "text2sparql", "virtuoso", "onboard", "db:migration", "workbench-bench"];
/** Not run here, and why. */
const NOT_RUN: Record<string, string> = {
  dev: "starts a development server",
  build: "a production build (minutes); CI runs it",
  start: "starts the server (needs a build)",
  serve: "migrates, builds and starts the server",
  test: "the test suites themselves",
  "test:unit": "the test suites themselves",
  "test:e2e": "the end-to-end tests (CI)",
  lint: "CI runs it",
  typecheck: "CI runs it",
  "db:generate": "runs at npm install (postinstall)",
  "db:check": "CI runs it (needs PostgreSQL for the full check)",
  mcp: "a stdio server: lib/mcp/stdio.test.ts drives it with the MCP SDK's client",
  load: "needs a production build: --help only",
  virtuoso: "needs Virtuoso installed: --help only",
  onboard: "prepares a KG with the LLM: --help only",
  "db:migration": "writes migration files: --help only",
};

let tmp: string;
let chatLlm: MockOpenAIServer;
let t2sLlm: MockOpenAIServer;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "documented-commands-"));
  chatLlm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/e2e/figure1-rules.json")) });
  t2sLlm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/text2sparql/rules.json")) });
  // a database nobody has migrated (a fresh checkout), no key, the mock LLM, no sign-in
  env = {
    ...process.env,
    DATABASE_URL: `file:${path.join(tmp, "fresh.db")}`,
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: chatLlm.baseURL,
    LLM_MODEL: "mock",
    EMBEDDING_KIND: "lexical",
    EVAL_RUNS_DIR: path.join(tmp, "runs"),
    NODE_OPTIONS: "",
  };
  delete env.AUTH_PASSWORD;
  delete env.OPENAI_API_KEY;
}, 60_000);
afterAll(async () => {
  await chatLlm?.close();
  await t2sLlm?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** `npm run -s <script> -- <args>` as a user types it; stdout, stderr and the exit code. */
function npmRun(script: string, args: string[], extraEnv: Record<string, string | undefined> = {}): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "-s", script, ...(args.length ? ["--", ...args] : [])], { cwd: ROOT, env: { ...env, ...extraEnv } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    child.stdout.on("data", (d) => (out += String(d)));
    child.stderr.on("data", (d) => (err += String(d)));
    child.on("close", (code) => resolve({ code, out, err }));
  });
}

describe("documented commands", () => {
  it("finds the commands in README.md and docs/, and every one names a script of package.json", () => {
    expect(COMMANDS.length).toBeGreaterThan(50);
    const missing = [...new Set(COMMANDS.filter((c) => !SCRIPTS[c.script]).map((c) => `${c.file}: npm run ${c.script}`))];
    expect(missing).toEqual([]);
  });

  it("every documented script is run below or listed as not run, with the reason", () => {
    const covered = new Set([...CLIS, ...Object.keys(NOT_RUN), "db:migrate"]);
    expect([...new Set(COMMANDS.map((c) => c.script))].filter((s) => !covered.has(s))).toEqual([]);
  });

  it.each(CLIS)("npm run %s -- --help prints a usage that names every flag the docs use with it", async (script) => {
    const r = await npmRun(script, ["--help"]);
    expect(r.code, r.err).toBe(0);
    const help = r.out + r.err;
    expect(help).toMatch(/Usage:/);
    const unknown = flagsOf(script).filter((f) => !help.includes(f));
    expect(unknown, `flags the docs use with npm run ${script} that its --help does not name`).toEqual([]);
  }, 60_000);
});

describe("documented commands, run on fixtures from a fresh checkout", () => {
  it("npm run experience -- import on a never-migrated database applies the migrations itself, then imports", async () => {
    const r = await npmRun("experience", ["import", "--kg", "test/fixtures/eval/tiny.ttl", "--dataset", "jsonl", "--file", "test/fixtures/eval/single.jsonl"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/database: applied \d+ migrations/);
    expect(r.out).toMatch(/imported \d+/i);
    const list = await npmRun("experience", ["list", "--kg", "test/fixtures/eval/tiny.ttl"]);
    expect(list.code, list.err).toBe(0);
    expect(list.out).toMatch(/^[1-9]\d* solved question/m);
  }, 60_000);

  it("npm run db:migrate: nothing left to apply after that", async () => {
    const r = await npmRun("db:migrate", []);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/no pending migrations/);
  }, 60_000);

  it('npm run ask -- --kg sample "Who is the author of Harry Potter?"', async () => {
    const r = await npmRun("ask", ["--kg", "sample", "Who is the author of Harry Potter?"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/J\. K\. Rowling/);
  }, 60_000);

  it("npm run workbench-bench -- --kg sample times every step of the workbench's server side", async () => {
    const r = await npmRun("workbench-bench", ["--kg", "sample"]);
    expect(r.code, r.err).toBe(0);
    for (const step of ["vocabulary (cold)", "a class's predicates (cold)", "hover on an entity (cold)", "check a misspelt predicate", "format"]) expect(r.out).toContain(step);
  }, 60_000);

  it("npm run eval -- --dataset jsonl … --llm replay (the offline example of docs/eval.md)", async () => {
    const out = path.join(tmp, "eval-replay");
    const r = await npmRun("eval", ["--dataset", "jsonl", "--file", "test/fixtures/eval/single.jsonl", "--kg", "test/fixtures/eval/tiny.ttl", "--llm", "replay", "--replay", "test/fixtures/eval/replay.json", "--out", out]);
    expect(r.code, r.err).toBe(0);
    expect(existsSync(path.join(out, "result.json"))).toBe(true);
  }, 60_000);

  it.skipIf(!existsSync(path.join(SHARED, "ck25")))("npm run eval -- --check-gold --dataset ck25 --kg ../shared/data/ck25/graphs/prod-inst.ttl", async () => {
    const r = await npmRun("eval", ["--check-gold", "--dataset", "ck25", "--kg", "../shared/data/ck25/graphs/prod-inst.ttl"]);
    expect(r.out + r.err).toMatch(/gold reproduced: 46\/50/);
  }, 60_000);

  it('npm run text2sparql -- --dataset <IRI> --kg <file> "question" prints {dataset, question, query}', async () => {
    const dataset = "https://text2sparql.aksw.org/2026/corporate/";
    const r = await npmRun("text2sparql", ["--dataset", dataset, "--kg", "test/fixtures/rdf/cities.nt", "Wie viele Einwohner hat Zürich?"], {
      LLM_BASE_URL: t2sLlm.baseURL,
      TEXT2SPARQL_STRATEGY: "one-shot-sparql",
    });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ dataset, question: "Wie viele Einwohner hat Zürich?", query: expect.stringContaining("population") });
  }, 60_000);

  it("npm run bench -- --kg <file> --only kg", async () => {
    const r = await npmRun("bench", ["--kg", "test/fixtures/eval/tiny.ttl", "--only", "kg"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/label search/);
  }, 60_000);
});
