// `npm run text2sparql` as a user runs it: the same JSON the API answers, on stdout; the strategy and time on stderr.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";

const CORPORATE = "https://text2sparql.aksw.org/2026/corporate/";
let llm: MockOpenAIServer;

beforeAll(async () => {
  llm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/text2sparql/rules.json")) });
});
afterAll(async () => {
  await llm?.close();
});

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(LLM_|OPENAI_|GOOGLE_|KG_DEFAULT|TEXT2SPARQL_)/.test(k)) env[k] = v;
  Object.assign(env, {
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: llm.baseURL,
    LLM_MODEL: "mock",
    EMBEDDING_KIND: "lexical",
    EVAL_RUNS_DIR: "test/fixtures/text2sparql/no-runs",
    TEXT2SPARQL_STRATEGY: "one-shot-sparql",
    TEXT2SPARQL_DATASETS: `${CORPORATE}=test/fixtures/rdf/cities.nt`,
  });
  return new Promise((resolve, reject) => {
    const child = spawn("npx", ["tsx", "--conditions=react-server", "scripts/text2sparql.ts", ...args], { env: env as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 90_000);
    child.on("error", reject);
    child.on("close", (code) => (clearTimeout(timer), resolve({ code, stdout, stderr })));
  });
}

describe("scripts/text2sparql.ts", () => {
  it("prints exactly {dataset, question, query} for a mapped dataset", async () => {
    const r = await run(["--dataset", CORPORATE, "Wie viele Einwohner hat Zürich?"]);
    expect(r.code, r.stderr).toBe(0);
    const body = JSON.parse(r.stdout) as Record<string, string>;
    expect(Object.keys(body).sort()).toEqual(["dataset", "query", "question"]);
    expect(body.query).toContain("<http://example.org/population>");
    expect(r.stderr).toMatch(/one-shot-sparql \(TEXT2SPARQL_STRATEGY\)/);
  }, 120_000);

  it("exits 2 naming the known datasets for an unknown one", async () => {
    const r = await run(["--dataset", "https://text2sparql.aksw.org/2026/dbpedia/", "¿Quién escribió el libro?"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error [not_found]`);
    expect(r.stderr).toContain(CORPORATE);
  }, 120_000);
});
