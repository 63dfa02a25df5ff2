// The ask CLI's profile flags as a user runs them: --profile from a JSON file makes label search use a custom predicate; bad profiles exit 2.
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import type { AgentRole } from "@/lib/llm/types";
import { resolveReply } from "@/test/pipeline/fixture-replies";

const ROOT = process.cwd();
const FX = "test/fixtures/cli";
const KG = `${FX}/custom-labels.ttl`;
const QUESTION = "Who is the author of Zorblax Chronicles?";
const CLI_TIMEOUT_MS = 60_000;

// One reply per role, as a competent model would give them for QUESTION.
const REPLIES = {
  chat: {
    toolCall: {
      name: "ask_knowledge_graph",
      input: {
        question: QUESTION,
        language: "en",
        context_dependent: false,
        qir: { entities: ["Zorblax Chronicles"], unknowns: ["?author"], relations: ["author"], triples: [["Zorblax Chronicles", "author", "?author"]], target: "?author", question_type: "factoid" },
      },
    },
  },
  vertex: { choices: { "Zorblax Chronicles": "#^Zorblax Chronicles" } },
  predicates: { reasoning: "author links a work to its writer", predicates: ["#^author( \\(|$)"] },
};

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], extraEnv: Record<string, string>): Promise<CliRun> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(LLM_|OPENAI_|GOOGLE_|KG_DEFAULT)/.test(k)) env[k] = v;
  Object.assign(env, { EMBEDDING_KIND: "lexical", NO_COLOR: "1" }, extraEnv);
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

let server: MockOpenAIServer;
let llmEnv: Record<string, string>;

beforeAll(async () => {
  const rules = rulesResponder(Object.entries(REPLIES).map(([role, reply]) => ({ role, reply })));
  server = await startMockOpenAIServer({ responder: async (req) => resolveReply(req.role as AgentRole, await rules(req), req.messages) });
  llmEnv = { LLM_PROVIDER: "openai-compatible", LLM_BASE_URL: server.baseURL, LLM_MODEL: "mock" };
});
afterAll(async () => {
  await server?.close();
});

describe("scripts/ask.ts profile flags", () => {
  it("--profile <file.json> with a custom label predicate finds an entity labelled only through it (and -v prints the profile)", async () => {
    const r = await runCli(["--kg", KG, "--profile", `${FX}/heading-profile.json`, "-v", QUESTION], llmEnv);
    expect(r.stderr).not.toMatch(/error \[/);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/profile: label search index · language en\n {2}labels: voc:heading\n/);
    expect(r.stdout).toMatch(/answer: .*Quinn Varga/);
    expect(r.stdout).toContain("<http://example.org/res/person-4>");
  }, CLI_TIMEOUT_MS + 10_000);

  it("--label-predicates with a full IRI does the same; without any profile flag the entity is not found", async () => {
    const withFlag = await runCli(["--kg", KG, "--label-predicates", "http://example.org/vocab/heading", QUESTION], llmEnv);
    expect(withFlag.code).toBe(0);
    expect(withFlag.stdout).toContain("<http://example.org/res/person-4>");
    const without = await runCli(["--kg", KG, QUESTION], llmEnv);
    expect(without.code).not.toBe(0);
    expect(without.stdout).not.toContain("<http://example.org/res/person-4>");
  }, 2 * CLI_TIMEOUT_MS + 10_000);

  it("exits 2 naming the bad field for an invalid or misspelt JSON profile, before any LLM call", async () => {
    const before = server.requests.length;
    const bad = await runCli(["--kg", KG, "--profile", `${FX}/bad-profile.json`, QUESTION], llmEnv);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/error \[bad_request\]: Invalid profile file .*bad-profile\.json: labelPredicates\.0 must be an absolute IRI/);
    const typo = await runCli(["--kg", KG, "--profile", `${FX}/typo-profile.json`, QUESTION], llmEnv);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/labelPredicate is not a profile field/);
    const search = await runCli(["--kg", KG, "--label-search", "fulltext", QUESTION], llmEnv);
    expect(search.code).toBe(2);
    expect(search.stderr).toMatch(/--label-search must be one of index, contains/);
    expect(server.requests.length).toBe(before);
  }, 3 * CLI_TIMEOUT_MS + 10_000);
});
