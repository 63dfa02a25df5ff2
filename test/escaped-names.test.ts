// A query that writes an IRI with a prefixed-name escape (`:ship\#launch_year`, SPARQL 1.1 PN_LOCAL_ESC) gets the same
// rows as the query with the IRI written out, through every path that parses and re-writes queries: the SPARQL panel's
// route (its row cap re-writes the query), MCP run_sparql, the TEXT2SPARQL API (it re-writes the model's query to drop
// the row limit; the returned text is run on the KG), and an evaluation gold (computed from the text, and an oracle run
// that writes its query from the gold's parse, which is where a benchmark in this form lost its score). sparqljs 3.7.4 kept the backslash
// (RubenVerborgh/SPARQL.js#168): the re-written query asked for <…ship\#launch_year>, which nothing has.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { SparqlResponse } from "@/lib/api/contract";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { computeGold } from "@/lib/eval/gold";
import { oracleFor } from "@/lib/eval/oracles";
import { runBenchmark } from "@/lib/eval/runner";
import { getStrategy } from "@/lib/pipeline/registry";
import { DEFAULT_CONFIG, type PipelineConfig } from "@/lib/pipeline/types";
import { openKg } from "@/lib/kg/open-kg";
import type { KnowledgeGraph, QueryResult } from "@/lib/kg/types";
import { rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";

const jar = new Map<string, string>();
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) => (jar.has(name) ? { name, value: jar.get(name) } : undefined),
    set: (name: string, value: string) => void jar.set(name, value),
  }),
}));

const KG_FILE = "test/fixtures/rdf/escaped-names.ttl";
const DATASET = "https://example.org/datasets/fleet/";
const ESCAPED = "PREFIX : <http://ex.org/fleet/>\nSELECT ?s ?y WHERE { ?s :ship\\#launch_year ?y } ORDER BY ?y";
const WRITTEN_OUT = "SELECT ?s ?y WHERE { ?s <http://ex.org/fleet/ship#launch_year> ?y } ORDER BY ?y";
const YEARS = ["1921", "1934", "1958"];

let tmp: TempDb;
let llm: MockOpenAIServer;
let kg: KnowledgeGraph;

beforeAll(async () => {
  tmp = await createTempDb();
  // the model (one-shot baseline) writes the escaped form, as the benchmark that found this does
  llm = await startMockOpenAIServer({ responder: rulesResponder([{ role: "baseline", match: "launched", reply: `\`\`\`sparql\n${ESCAPED}\n\`\`\`` }]) });
  delete process.env.AUTH_PASSWORD;
  Object.assign(process.env, {
    DATABASE_URL: tmp.url,
    SESSION_SECRET: "escaped-names-test-secret-0123456789",
    KG_DEFAULT: KG_FILE,
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: llm.baseURL,
    LLM_MODEL: "mock",
    EMBEDDING_KIND: "lexical",
    TEXT2SPARQL_DATASETS: `${DATASET}=${KG_FILE}`,
    TEXT2SPARQL_STRATEGY: "one-shot-sparql",
  });
  kg = await openKg({ kind: "files", paths: [KG_FILE] });
}, 60_000);
afterAll(async () => {
  await kg?.close();
  const { getText2Sparql } = await import("@/lib/server/text2sparql-service");
  await getText2Sparql().close();
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await llm?.close();
  await tmp?.close();
});

const years = (r: QueryResult) => (r.kind === "SELECT" ? r.results.bindings.map((b) => b.y?.value) : []);

describe(":ship\\#launch_year and <…ship#launch_year> give the same rows", () => {
  it("on the KG directly (the reference)", async () => {
    expect(years(await kg.query(ESCAPED))).toEqual(YEARS);
    expect(years(await kg.query(WRITTEN_OUT))).toEqual(YEARS);
  });

  it("through the SPARQL panel's route (POST /api/sparql, whose row cap re-writes the query)", async () => {
    const { POST } = await import("@/app/api/sparql/route");
    const run = async (query: string) => {
      const res = await POST(new Request("http://localhost/api/sparql", { method: "POST", body: JSON.stringify({ kgId: "sample", query }), headers: { "content-type": "application/json" } }));
      expect(res.status).toBe(200);
      return ((await res.json()) as SparqlResponse).result;
    };
    expect(years(await run(ESCAPED))).toEqual(YEARS);
    expect(years(await run(WRITTEN_OUT))).toEqual(YEARS);
  });

  it("through MCP run_sparql", async () => {
    const { getServices } = await import("@/lib/server/services");
    const { getQueries } = await import("@/lib/db/queries");
    const { getRateLimiter } = await import("@/lib/server/limiters");
    const { createChattyMcpServer } = await import("@/lib/mcp/server");
    const { registry, runner } = getServices();
    const server = createChattyMcpServer({ registry, runner, queries: getQueries(), limiter: getRateLimiter(), sessionId: "escaped-names-test-session" });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    const client = new Client({ name: "escaped-names-test", version: "1.0.0" });
    await client.connect(clientSide);
    try {
      const run = async (query: string) => ((await client.callTool({ name: "run_sparql", arguments: { kg: "sample", query } })).structuredContent as { result: QueryResult }).result;
      expect(years(await run(ESCAPED))).toEqual(YEARS);
      expect(years(await run(WRITTEN_OUT))).toEqual(YEARS);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("through the TEXT2SPARQL API: the query it returns (the model wrote the escaped form) answers on the KG", async () => {
    const { GET } = await import("@/app/text2sparql/route");
    const res = await GET(new Request(`http://localhost/text2sparql?${new URLSearchParams({ question: "In which years were the ships launched?", dataset: DATASET })}`));
    expect(res.status).toBe(200);
    const { query } = (await res.json()) as { query: string };
    expect(query).not.toContain("\\#");
    expect(years(await kg.query(query))).toEqual(YEARS);
  }, 60_000);

  it("as an evaluation gold: the gold answers, and an oracle run that writes its query from the gold's parse", async () => {
    const escaped = await computeGold(kg, ESCAPED);
    expect(escaped).toEqual(await computeGold(kg, WRITTEN_OUT));
    expect(JSON.stringify(escaped)).toContain("1958");
    const tmpDir = mkdtempSync(path.join(os.tmpdir(), "escaped-gold-"));
    try {
      const f1 = async (goldSparql: string, name: string) => {
        const config: PipelineConfig = { ...DEFAULT_CONFIG, strategy: "explorer" };
        const items = [{ id: "q1", question: "In which years were the ships launched?", goldSparql, goldAnswers: await computeGold(kg, goldSparql) }];
        const out = await runBenchmark(
          { items, modes: ["single"], config, outDir: path.join(tmpDir, name), runId: name, meta: { dataset: "jsonl", file: "x", kg: "fleet", limit: null, llm: { provider: "oracle", model: "gold-shape" } } },
          { strategy: getStrategy("explorer"), kg, llm: kg as never, similarity: createLexicalSimilarity(), llmFor: (item, signal) => oracleFor("explorer", "gold-shape")(item, kg, config, signal) },
        );
        return out.result.summary.modes[0].macro.all.f1;
      };
      expect(await f1(ESCAPED, "escaped")).toBe(1);
      expect(await f1(WRITTEN_OUT, "written-out")).toBe(1);
    } finally {
      rmSync(tmpDir, { recursive: true, force: true });
    }
  }, 60_000);
});
