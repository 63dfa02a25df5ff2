// End to end through HTTP: config → real provider SDK (openai-compatible and openai.chat) → gateway → local mock server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { generateText, isStepCount, tool } from "ai";
import { AppError } from "@/lib/errors";
import { parseLlmConfig, type LlmConfigInput } from "@/lib/llm/config";
import { createLlmFromConfig } from "@/lib/llm/create";
import { startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import type { ReplyValue } from "@/lib/llm/testing/replies";

const KEY = "sk-test-SECRET-abcdef0123456789";
let srv: MockOpenAIServer;
// Each test queues replies here; the server answers with the head of the queue for the calling role.
const queue: Record<string, ReplyValue[]> = {};

beforeAll(async () => {
  srv = await startMockOpenAIServer({
    apiKey: KEY,
    responder: ({ role }) => {
      const next = queue[role]?.shift();
      if (next === undefined) throw new Error(`test queued no reply for ${role}`);
      return next;
    },
  });
});
afterAll(() => srv.close());

async function rejects(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}

function assertNoKey(value: unknown) {
  const s = JSON.stringify(value);
  expect(s).not.toContain(KEY);
  expect(s).not.toContain("SECRET-abcdef");
}

for (const provider of ["openai-compatible", "openai"] as const) {
  describe(`gateway over HTTP via ${provider}`, () => {
    const make = (over: Partial<LlmConfigInput> = {}, retry = { baseDelayMs: 5 }) =>
      createLlmFromConfig(parseLlmConfig({ provider, model: "mock-model", baseURL: srv.baseURL, apiKey: KEY, timeoutMs: 5000, ...over }), { retry });

    it("text reply: role header and key reach the server, tokens are recorded", async () => {
      queue.answer = ["Frank Herbert wrote Dune."];
      const llm = make({ roleModels: { answer: "answer-model" } });
      const r = await llm.call({ role: "answer", system: "Answer briefly.", prompt: "Who wrote Dune?" });
      expect(r).toMatchObject({ ok: true, text: "Frank Herbert wrote Dune." });
      const req = srv.requests.at(-1)!;
      expect(req.headers["x-chatty-role"]).toBe("answer");
      expect(req.headers.authorization).toBe(`Bearer ${KEY}`);
      expect(req.body).toMatchObject({ model: "answer-model", temperature: 0, messages: [{ role: "system" }, { role: "user", content: "Who wrote Dune?" }] });
      expect(r.record).toMatchObject({ provider, model: "answer-model", tokensIn: expect.any(Number), tokensOut: 7 });
      expect(r.record.tokensIn).toBeGreaterThan(0);
      assertNoKey(llm.records);
    });

    it("JSON reply validated against a schema; invalid JSON is ok:false with the reason", async () => {
      queue.qir = ['Here you go:\n```json\n{"triples": [["?b", "author", "Frank Herbert"]]}\n```', '{"triples": [["?b", "author" "x"]]}'];
      const llm = make();
      const schema = z.object({ triples: z.array(z.array(z.string()).length(3)) });
      const ok = await llm.call({ role: "qir", prompt: "q", schema });
      expect(ok.ok && ok.value.triples).toEqual([["?b", "author", "Frank Herbert"]]);
      const bad = await llm.call({ role: "qir", prompt: "q", schema, attempt: 2 });
      expect(bad).toMatchObject({ ok: false, reason: expect.stringMatching(/^JSON syntax error at position \d+/) });
      expect(bad.record).toMatchObject({ attempt: 2, validationError: bad.ok ? "" : bad.reason });
    });

    it("tool calls round-trip through the provider (chat agent driving the SDK via resolve)", async () => {
      queue.chat = [{ toolCall: { name: "askKg", input: { question: "Who wrote Dune?" } } }, "It was Frank Herbert."];
      const llm = make();
      const asked: string[] = [];
      const r = await generateText({
        model: llm.resolve("chat").model,
        prompt: "who wrote dune",
        headers: { "X-Chatty-Role": "chat" },
        tools: { askKg: tool({ inputSchema: z.object({ question: z.string() }), execute: async ({ question }) => (asked.push(question), "Frank Herbert") }) },
        stopWhen: isStepCount(3),
      });
      expect(asked).toEqual(["Who wrote Dune?"]);
      expect(r.text).toBe("It was Frank Herbert.");
      expect((srv.requests.at(-2)!.body as { tools: unknown[] }).tools).toHaveLength(1);
    });

    it("a tool call where text was expected is ok:false, serialised in rawOutput", async () => {
      queue.answer = [{ toolCall: { name: "askKg", input: { q: 1 } } }];
      const r = await make().call({ role: "answer", prompt: "q" });
      expect(r).toMatchObject({ ok: false, reason: "the model called a tool instead of answering with text" });
      expect(JSON.parse(r.record.rawOutput)).toEqual([{ toolCall: { name: "askKg", input: { q: 1 } } }]);
    });

    it("401 → llm_auth without retries, and the key is in neither message, JSON nor records", async () => {
      queue.answer = [{ status: 401, body: { error: { message: `Incorrect API key provided: ${KEY}` } } }];
      const llm = make();
      const e = await rejects(llm.call({ role: "answer", prompt: "q" }));
      expect(e.code).toBe("llm_auth");
      expect(e.message).toContain("HTTP 401");
      expect(e.message).not.toContain(KEY);
      assertNoKey(e.toJSON());
      assertNoKey(llm.records);
      expect(llm.records).toHaveLength(1);
    });

    it("wrong key at the server → llm_auth", async () => {
      const llm = make({ apiKey: "sk-wrong-key-0000000000" });
      expect((await rejects(llm.call({ role: "answer", prompt: "q" }))).code).toBe("llm_auth");
    });

    it("429 with retry-after: waits, retries, then succeeds", async () => {
      queue.answer = [{ error: 429, retryAfter: 0.05 }, { error: 429, retryAfter: 0.05 }, "finally"];
      const llm = make();
      const t = Date.now();
      const r = await llm.call({ role: "answer", prompt: "q" });
      expect(r.text).toBe("finally");
      expect(Date.now() - t).toBeGreaterThanOrEqual(90);
      expect(llm.records.map((x) => x.error?.code)).toEqual(["llm_rate_limit", "llm_rate_limit", undefined]);
    });

    it("429 every time: gives up after 2 retries with llm_rate_limit and retry-after in details", async () => {
      queue.answer = [1, 2, 3].map(() => ({ error: 429, retryAfter: 0.01 }) as ReplyValue);
      const llm = make();
      const e = await rejects(llm.call({ role: "answer", prompt: "q" }));
      expect(e.code).toBe("llm_rate_limit");
      expect(e.details).toMatchObject({ status: 429, retryAfterSeconds: 0.01 });
      expect(llm.records).toHaveLength(3);
      expect(queue.answer).toEqual([]);
    });

    it("500 → llm_server after bounded retries", async () => {
      queue.answer = [{ error: 500 }, { error: 500 }, { error: 500 }];
      const llm = make();
      const e = await rejects(llm.call({ role: "answer", prompt: "q" }));
      expect(e.code).toBe("llm_server");
      expect(e.message).toMatch(/HTTP 500/);
      expect(llm.records).toHaveLength(3);
    });

    it("a server slower than timeoutMs → llm_timeout quickly", async () => {
      queue.answer = [{ delayMs: 3000, then: "too late" }];
      const llm = make({ timeoutMs: 150 });
      const t = Date.now();
      const e = await rejects(llm.call({ role: "answer", prompt: "q" }));
      expect(e.code).toBe("llm_timeout");
      expect(Date.now() - t).toBeLessThan(1000);
      expect(llm.records[0].error?.code).toBe("llm_timeout");
    });

    it("the caller's abort ends the call as aborted", async () => {
      queue.answer = [{ delayMs: 3000, then: "too late" }];
      const llm = make();
      const ac = new AbortController();
      setTimeout(() => ac.abort(), 50);
      const t = Date.now();
      const e = await rejects(llm.call({ role: "answer", prompt: "q", signal: ac.signal }));
      expect(e.code).toBe("aborted");
      expect(Date.now() - t).toBeLessThan(1000);
    });
  });
}

it("records added by agents through record() are scrubbed of the configured key", () => {
  const llm = createLlmFromConfig(parseLlmConfig({ provider: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:1/v1", apiKey: "custom-key-9876" }));
  llm.record({
    id: "r1", role: "chat", provider: "openai-compatible", model: "m", messages: [], rawOutput: "echo custom-key-9876", attempt: 1,
    startedAt: 0, latencyMs: 1, tokensIn: 0, tokensOut: 0, error: { code: "llm_auth", message: "bad key custom-key-9876" },
  });
  expect(JSON.stringify(llm.records)).not.toContain("custom-key-9876");
});

it("an unreachable server → llm_server naming the failure", async () => {
  const llm = createLlmFromConfig(parseLlmConfig({ provider: "openai-compatible", model: "m", baseURL: "http://127.0.0.1:9/v1", timeoutMs: 3000 }), {
    retry: { maxRetries: 0 },
  });
  const e = await rejects(llm.call({ role: "answer", prompt: "q" }));
  expect(e.code).toBe("llm_server");
});
