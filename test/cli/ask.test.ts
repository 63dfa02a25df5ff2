// The ask CLI as a user runs it (npx tsx scripts/ask.ts) against a mock OpenAI-compatible server, and its failure exits.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import type { AgentRole } from "@/lib/llm/types";
import { readJson, resolveReply, roleRepliesSchema } from "@/test/pipeline/fixture-replies";

const ROOT = process.cwd();
const CLI_TIMEOUT_MS = 60_000;

// Turn 1 of Figure 1, from the same fixture as the pipeline test: one rule per role.
const turn1 = readJson(
  path.join(ROOT, "test/fixtures/dialogues/figure1.json"),
  z.object({ turns: z.array(z.object({ question: z.string(), replies: roleRepliesSchema })).min(1) }).loose(),
).turns[0];

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Env without any LLM/provider setting, plus `extra`; lexical similarity so no embedding model is loaded. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(LLM_|OPENAI_|GOOGLE_|KG_DEFAULT)/.test(k)) env[k] = v;
  return { ...env, EMBEDDING_KIND: "lexical", NO_COLOR: "1", ...extra };
}

function runCli(args: string[], env: Record<string, string | undefined>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "scripts/ask.ts", ...args], { cwd: ROOT, env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), CLI_TIMEOUT_MS);
    child.on("error", reject);
    child.on("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

/** A local port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const srv = http.createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", () => r()));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

let server: MockOpenAIServer;
let tmp: string;

beforeAll(async () => {
  const rules = rulesResponder(
    Object.entries(turn1.replies).map(([role, replies]) => ({ role, reply: replies?.[0] })),
  );
  // rules give the fixture reply; option markers become the numbers shown in the actual prompt
  server = await startMockOpenAIServer({
    responder: async (req) => resolveReply(req.role as AgentRole, await rules(req), req.messages),
  });
  tmp = mkdtempSync(path.join(os.tmpdir(), "ask-cli-"));
});
afterAll(async () => {
  await server?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("scripts/ask.ts", () => {
  it("answers Figure 1 turn 1 on the sample KG and prints the answer, the SPARQL and the summary line", async () => {
    const env = cleanEnv({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: server.baseURL, LLM_MODEL: "mock" });
    const r = await runCli(["--kg", "sample", turn1.question], env);
    expect(r.stderr).not.toMatch(/error \[/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/answer: .*J\. K\. Rowling/);
    expect(r.stdout).toContain("<http://example.org/chatty-kg/resource/J_K_Rowling>");
    expect(r.stdout).toMatch(/SPARQL:\n[\s\S]*SELECT[\s\S]*<http:\/\/example\.org\/chatty-kg\/resource\/Harry_Potter>/);
    // chat (with the QIR in its tool call, batched by default) + vertex + predicates, all through the mock server
    expect(r.stdout).toMatch(/— [\d.]+ s · 3 LLM calls \(\d+\/\d+ tokens\) · \d+ SPARQL quer(y|ies)/);
    expect(server.requests.map((q) => q.role)).toEqual(["chat", "vertex", "predicates"]);
  });

  it("answers with --strategy ragonite and prints the SQL over the induced database and the citations", async () => {
    const ragonite = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/e2e/figure1-rules.json")) });
    try {
      const env = cleanEnv({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: ragonite.baseURL, LLM_MODEL: "mock" });
      const r = await runCli(["--kg", "sample", "--strategy", "ragonite", "Which films did Chris Columbus direct?"], env);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/answer: 5 items: Home Alone, Mrs\. Doubtfire/);
      expect(r.stdout).toMatch(/SQL \(over the database induced from the KG\):\nSELECT f\.iri FROM film f/);
      expect(r.stdout).toContain("[S1.1] iri = http://example.org/chatty-kg/resource/Home_Alone");
      expect(ragonite.requests.map((q) => q.role)).toEqual(["chat", "retrieval", "retrieval", "retrieval", "answer"]);
    } finally {
      await ragonite.close();
    }
  }, 120_000);

  it("exits non-zero and says what to set when no LLM is configured", async () => {
    const r = await runCli(["--kg", "sample", "Who wrote Harry Potter?"], cleanEnv());
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("No LLM is configured");
    expect(r.stderr).toMatch(/LLM_BASE_URL/);
  });

  it("exits non-zero with the line number when the file is not RDF", async () => {
    const file = path.join(tmp, "notes.ttl");
    writeFileSync(file, "@prefix ex: <http://example.org/> .\nex:a ex:b ex:c .\nthis line is not turtle at all\n");
    const env = cleanEnv({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: server.baseURL, LLM_MODEL: "mock" });
    const r = await runCli(["--kg", file, "Who wrote it?"], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/error \[/);
    expect(r.stderr).toMatch(/line 3\b/);
  });

  it("exits non-zero with a clear message when the SPARQL endpoint is down", async () => {
    const port = await closedPort();
    const env = cleanEnv({ LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: server.baseURL, LLM_MODEL: "mock" });
    const before = server.requests.length;
    const r = await runCli(["--kg", `http://127.0.0.1:${port}/sparql`, "Who wrote Harry Potter?"], env);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/error \[/);
    expect(r.stderr).toContain(`127.0.0.1:${port}`);
    // the KG is probed before any LLM call is paid for
    expect(server.requests.length).toBe(before);
  });
});
