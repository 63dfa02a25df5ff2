// GET /api/text2sparql (and /text2sparql) driven as the TEXT2SPARQL client does: URL-encoded GET, both 2026 dataset
// IRIs mapped to fixture KGs, the LLM behind the mock OpenAI-compatible server; the returned query runs on the KG.
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { openKg } from "@/lib/kg/open-kg";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));

const CORPORATE = "https://text2sparql.aksw.org/2026/corporate/";
const DBPEDIA = "https://text2sparql.aksw.org/2026/dbpedia/";
const SAMPLE = "https://example.org/datasets/sample/";
const CITIES = "test/fixtures/rdf/cities.nt";
const BOOKS = "test/fixtures/rdf/books.ttl";
// what the official client accepts: all three keys, nothing else
const answerSchema = z.strictObject({ dataset: z.string(), question: z.string(), query: z.string().min(1) });
const fastApi422 = z.object({ detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })).min(1) });

let tmp: TempDb;
let llm: MockOpenAIServer;
let runsDir: string;
let api: typeof import("./route");
let root: typeof import("@/app/text2sparql/route");

beforeAll(async () => {
  tmp = await createTempDb();
  llm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/text2sparql/rules.json")) });
  runsDir = mkdtempSync(path.join(os.tmpdir(), "t2s-runs-"));
  Object.assign(process.env, {
    DATABASE_URL: tmp.url,
    SESSION_SECRET: "text2sparql-test-secret-0123456789abcdef",
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: llm.baseURL,
    LLM_MODEL: "mock",
    EMBEDDING_KIND: "lexical",
    EVAL_RUNS_DIR: runsDir,
    TEXT2SPARQL_DATASETS: `${CORPORATE}=${CITIES},${DBPEDIA}=${BOOKS},${SAMPLE}=sample`,
  });
  api = await import("./route");
  root = await import("@/app/text2sparql/route");
});
afterAll(async () => {
  const { getServices } = await import("@/lib/server/services");
  const { getText2Sparql } = await import("@/lib/server/text2sparql-service");
  await getText2Sparql().close();
  await getServices().registry.close();
  await llm?.close();
  await tmp?.close();
  rmSync(runsDir, { recursive: true, force: true });
});
beforeEach(() => {
  process.env.TEXT2SPARQL_STRATEGY = "one-shot-sparql";
  delete process.env.TEXT2SPARQL_BUDGET_MS;
});

/** The request as the client builds it: base URL + "/text2sparql" (or the API path), both parameters URL-encoded. */
function ask(params: Record<string, string>, route: "api" | "root" = "api", headers?: Record<string, string>): Promise<Response> {
  const query = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join("&");
  const url = `http://127.0.0.1:3000${route === "api" ? "/api/text2sparql" : "/text2sparql"}?${query}`;
  return (route === "api" ? api : root).GET(new Request(url, { headers }));
}

async function rowsOf(file: string, query: string): Promise<string[]> {
  const kg = await openKg({ kind: "files", paths: [file] });
  try {
    const r = await kg.select(query);
    return r.results.bindings.flatMap((b) => Object.values(b).map((t) => t.value));
  } finally {
    await kg.close();
  }
}

describe("GET /api/text2sparql", () => {
  it("answers a German question on the corporate dataset with exactly {dataset, question, query}, and the query answers it on the KG", async () => {
    const question = "Wie viele Einwohner hat Zürich?";
    const res = await ask({ question, dataset: CORPORATE });
    expect(res.status).toBe(200);
    const body = answerSchema.parse(await res.json());
    expect(body.dataset).toBe(CORPORATE);
    expect(body.question).toBe(question); // the umlaut and "?" came through the URL encoding unchanged
    expect(await rowsOf(CITIES, body.query)).toEqual(["421878"]);
  });

  it("maps the dbpedia dataset to its own KG and declares the prefixes the query uses; also answers at /text2sparql", async () => {
    const res = await ask({ question: "Who wrote Harry Potter and the Philosopher's Stone?", dataset: DBPEDIA }, "root");
    expect(res.status).toBe(200);
    const body = answerSchema.parse(await res.json());
    expect(body.dataset).toBe(DBPEDIA);
    // the model used rdfs: without declaring it: the returned query declares it, so it runs on the organisers' endpoint too
    expect(body.query).toMatch(/PREFIX rdfs: <http:\/\/www\.w3\.org\/2000\/01\/rdf-schema#>/);
    expect(await rowsOf(BOOKS, body.query)).toEqual(["http://example.org/rowling"]);
  });

  it("a dataset mapped to 'sample' is answered on the installation's default KG", async () => {
    const res = await ask({ question: "Wer hat Harry Potter geschrieben?", dataset: SAMPLE });
    expect(res.status).toBe(200);
    const body = answerSchema.parse(await res.json());
    expect(await rowsOf("kg/sample.ttl", body.query)).toEqual(["http://example.org/chatty-kg/resource/J_K_Rowling"]);
  });

  it("an unknown dataset is a 404 (the 2025 IRI of a 2026-only setup), and nothing is asked of the model", async () => {
    const before = llm.requests.length;
    const res = await ask({ question: "Wie viele Einwohner hat Zürich?", dataset: "https://text2sparql.aksw.org/2025/corporate/" });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { detail: string; error: { code: string } };
    expect(body.error.code).toBe("not_found");
    expect(body.detail).toContain(CORPORATE);
    expect(llm.requests.length).toBe(before);
  });

  it("a missing parameter is a 422 in FastAPI's shape, naming each missing one", async () => {
    const noDataset = await ask({ question: "Wie viele Einwohner hat Zürich?" });
    expect(noDataset.status).toBe(422);
    const raw = await noDataset.json();
    fastApi422.parse(raw);
    expect(raw.detail).toEqual([{ type: "missing", loc: ["query", "dataset"], msg: "Field required", input: null }]);
    const neither = fastApi422.parse(await (await ask({})).json());
    expect(neither.detail.map((d) => d.loc)).toEqual([["query", "question"], ["query", "dataset"]]);
  });

  it("a machine client's bearer token must be TEXT2SPARQL_TOKEN: a wrong one is a 401 before anything runs", async () => {
    process.env.TEXT2SPARQL_TOKEN = "t2s-test-token";
    try {
      const before = llm.requests.length;
      const wrong = await ask({ question: "Wie viele Einwohner hat Zürich?", dataset: CORPORATE }, "root", { authorization: "Bearer nope" });
      expect(wrong.status).toBe(401);
      expect(llm.requests.length).toBe(before);
      const right = await ask({ question: "Wie viele Einwohner hat Zürich?", dataset: CORPORATE }, "root", { authorization: "Bearer t2s-test-token" });
      expect(right.status).toBe(200);
      answerSchema.parse(await right.json());
    } finally {
      delete process.env.TEXT2SPARQL_TOKEN;
    }
  });

  it("when the budget ends mid-run, the best query found so far is still returned", async () => {
    process.env.TEXT2SPARQL_STRATEGY = "explorer";
    process.env.TEXT2SPARQL_BUDGET_MS = "12000";
    const started = Date.now();
    // the explorer runs a query, then its next model call hangs for a minute: the budget cuts it off
    const res = await ask({ question: "Wie viele Einwohner hat Zürich?", dataset: CORPORATE });
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(res.status).toBe(200);
    const body = answerSchema.parse(await res.json());
    expect(await rowsOf(CITIES, body.query)).toEqual(["421878"]);
    expect(llm.requests.filter((r) => r.role === "explorer").length).toBe(3);
  }, 60_000);
});
