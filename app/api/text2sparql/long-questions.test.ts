// TEXT2SPARQL over real HTTP, with the HTTP server scripts/serve.mjs builds (scripts/http-limits.mjs: 64 KB of request
// line and headers, JSON for an oversized request, the connection's address for rate limits) in front of the route.
// The official client (AKSW text2sparql-client 2.1.x, Python) cannot be installed here (PyPI is out of reach), so the
// test plays its `ask` loop as its code does it: `requests.get(url, params={"dataset": …, "question": …})` (form
// encoding, spaces as "+"), then `ResponseMessage(**response.json())` with no status check; a pydantic validation error
// is logged and the run goes on, anything else — a body that is not JSON — ends the whole run.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { loadRules, rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createTempDb, type TempDb } from "@/lib/server/testing/temp-db";
// @ts-expect-error: a plain ES module of the serve script, without types
import { answerUnreadableRequests, MAX_HEADER_BYTES, withClientAddress } from "@/scripts/http-limits.mjs";

vi.mock("next/headers", () => ({
  cookies: async () => ({ get: () => undefined, set: () => {} }),
}));

const CORPORATE = "https://text2sparql.aksw.org/2026/corporate/";
const CITIES = "test/fixtures/rdf/cities.nt";
const TOKEN = "t2s-long-question-token";
let tmp: TempDb;
let llm: MockOpenAIServer;
let runsDir: string;
let server: http.Server;
let base: string;

beforeAll(async () => {
  tmp = await createTempDb();
  llm = await startMockOpenAIServer({ responder: rulesResponder(loadRules("test/fixtures/text2sparql/rules.json")) });
  runsDir = mkdtempSync(path.join(os.tmpdir(), "t2s-long-"));
  delete process.env.AUTH_PASSWORD;
  Object.assign(process.env, {
    DATABASE_URL: tmp.url,
    SESSION_SECRET: "text2sparql-long-test-secret-0123456789",
    LLM_PROVIDER: "openai-compatible",
    LLM_BASE_URL: llm.baseURL,
    LLM_MODEL: "mock",
    EMBEDDING_KIND: "lexical",
    EVAL_RUNS_DIR: runsDir,
    TEXT2SPARQL_DATASETS: `${CORPORATE}=${CITIES}`,
    TEXT2SPARQL_STRATEGY: "one-shot-sparql",
    TEXT2SPARQL_BUDGET_MS: "15000",
    TEXT2SPARQL_TOKEN: TOKEN,
    TEXT2SPARQL_RATE_PER_MINUTE: "3",
  });
  const route = await import("@/app/text2sparql/route");
  // what Next does for the route: the node request as a web Request, the web Response written back
  const adapter = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers.set(k, v);
    void route.GET(new Request(`http://${req.headers.host}${req.url}`, { headers })).then(async (r) => {
      res.writeHead(r.status, Object.fromEntries(r.headers));
      res.end(Buffer.from(await r.arrayBuffer()));
    });
  };
  server = answerUnreadableRequests(http.createServer({ maxHeaderSize: MAX_HEADER_BYTES }, withClientAddress(adapter)));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  const { getText2Sparql } = await import("@/lib/server/text2sparql-service");
  await getText2Sparql().close();
  const { getServices } = await import("@/lib/server/services");
  await getServices().registry.close();
  await llm?.close();
  await tmp?.close();
  rmSync(runsDir, { recursive: true, force: true });
});

/** requests.get(url, params=…): the parameters form-encoded in the order given (spaces as "+"). */
const requestsGet = (question: string, headers: Record<string, string> = {}) =>
  fetch(`${base}/text2sparql?${new URLSearchParams({ dataset: CORPORATE, question })}`, { headers });

/** The client's ResponseMessage model: its three fields (pydantic ignores extra keys). */
const responseMessage = z.object({ dataset: z.string(), question: z.string(), query: z.string() });

/** The client's ask loop over the questions: answers kept, validation errors logged; a non-JSON body ends the run. */
async function askRun(questions: string[]): Promise<{ answers: z.infer<typeof responseMessage>[]; validationErrors: number; statuses: number[] }> {
  const answers: z.infer<typeof responseMessage>[] = [];
  const statuses: number[] = [];
  let validationErrors = 0;
  for (const q of questions) {
    const res = await requestsGet(q);
    statuses.push(res.status);
    const body: unknown = JSON.parse(await res.text()); // requests' response.json(): a JSONDecodeError aborts the run
    const parsed = responseMessage.safeParse(body);
    if (parsed.success) answers.push(parsed.data);
    else validationErrors += 1; // logger.error("validation error"), next question
  }
  return { answers, validationErrors, statuses };
}

/** A German question of `n` characters (umlauts, ß, spaces, punctuation). */
const german = (n: number) => "Welche Städte in Österreich liegen südlich von Graz und größer als Zürich? ".repeat(Math.ceil(n / 75)).slice(0, n);

describe("TEXT2SPARQL questions of any length over GET, as the official client sends them", () => {
  it("the client's run completes with a 10,000-character German question in it: that one is a FastAPI 422 it can read, the others are answered", async () => {
    const long = german(10_000);
    const run = await askRun(["Wie viele Einwohner hat Zürich?", long, "Wie viele Einwohner hat Zürich?"]);
    expect(run.statuses).toEqual([200, 422, 200]);
    expect(run.answers).toHaveLength(2);
    expect(run.validationErrors).toBe(1);
    const res = await requestsGet(long);
    expect(await res.json()).toMatchObject({
      detail: [{ type: "string_too_long", loc: ["query", "question"], msg: "String should have at most 4000 characters", ctx: { max_length: 4000 } }],
    });
  }, 120_000);

  it("a question at the app's limit in 3-byte characters (4,000 CJK: a 36 KB URL, over Node's 16 KB default) is answered", async () => {
    const cjk = "東京の人口は何人ですか".repeat(400).slice(0, 4000);
    const res = await requestsGet(cjk, { authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    expect(responseMessage.parse(await res.json()).question).toBe(cjk);
  }, 120_000);

  it("a URL over 64 KB (20,000 'ü') is a 431 whose body is JSON with `detail`, so the client's run goes on", async () => {
    const run = await askRun(["ü".repeat(20_000)]);
    expect(run.statuses).toEqual([431]);
    expect(run.validationErrors).toBe(1);
    const res = await requestsGet("ü".repeat(20_000));
    expect(((await res.json()) as { detail: string }).detail).toMatch(/larger than 64 KB/);
  });
});

describe("TEXT2SPARQL rate limits: per token for token clients, per address for the others, with Retry-After", () => {
  const ask = (headers: Record<string, string>) => requestsGet("Wie viele Einwohner hat Zürich?", headers);

  it("a token client's 4th question in a minute is refused with 429, Retry-After and a FastAPI `detail`", async () => {
    // the CJK question above used one of the token's three
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 3; i++) {
      last = await ask({ authorization: `Bearer ${TOKEN}` });
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(((await last!.json()) as { detail: string }).detail).toMatch(/^Too many TEXT2SPARQL questions from this client .* at most 3 a minute \(TEXT2SPARQL_RATE_PER_MINUTE\)/);
  }, 120_000);

  it("anonymous clients are limited per address, cookie or not: a second address still gets answers", async () => {
    const a = { "x-forwarded-for": "203.0.113.7" };
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await ask(a)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await ask({ "x-forwarded-for": "203.0.113.8" })).status).toBe(200);
  }, 120_000);
});
