import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { generateText, isStepCount, tool } from "ai";
import { AppError, isAppError } from "@/lib/errors";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { retryRunnerOf, ROLE_HEADER, type RetryingLlmGateway } from "@/lib/llm/gateway";
import type { LlmCallRecord, LlmGateway } from "@/lib/llm/types";

const triples = z.object({ triples: z.array(z.tuple([z.string(), z.string(), z.string()])) });

async function rejects(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof AppError) return e;
    throw e;
  }
  throw new Error("expected the call to fail");
}

describe("gateway with a scripted model", () => {
  it("returns text and records the call with system, messages, tokens and the role header", async () => {
    const seen: LlmCallRecord[] = [];
    const llm = createScriptedLlm({ answer: ["Frank Herbert wrote Dune."] }, { gateway: { onRecord: (r) => seen.push(r) } });
    const r = await llm.gateway.call({ role: "answer", system: "Be brief.", prompt: "Who wrote Dune?" });
    expect(r).toMatchObject({ ok: true, text: "Frank Herbert wrote Dune.", value: "Frank Herbert wrote Dune." });
    const rec = llm.gateway.records[0];
    expect(seen).toEqual([rec]);
    expect(rec).toMatchObject({
      role: "answer",
      provider: "mock",
      model: "scripted:answer",
      attempt: 1,
      rawOutput: "Frank Herbert wrote Dune.",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Who wrote Dune?" },
      ],
    });
    expect(rec.id).toMatch(/^[A-Za-z0-9_-]{8}$/);
    expect(rec.tokensIn).toBeGreaterThan(0);
    expect(rec.tokensOut).toBe(Math.ceil("Frank Herbert wrote Dune.".length / 4));
    expect(rec.error).toBeUndefined();
    expect(llm.calls[0].headers[ROLE_HEADER.toLowerCase()]).toBe("answer");
    expect(llm.calls[0].messages.map((m) => m.role)).toEqual(["system", "user"]);
  });

  it("parses and validates JSON output against the schema", async () => {
    const llm = createScriptedLlm({ qir: ['```json\n{"triples": [["?book", "author", "Frank Herbert"]]}\n```'] });
    const r = await llm.gateway.call({ role: "qir", prompt: "Which books did Frank Herbert write?", schema: triples });
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.triples[0][2]).toBe("Frank Herbert");
    expect(r.record.parsed).toEqual({ triples: [["?book", "author", "Frank Herbert"]] });
  });

  it("bad output comes back as ok:false with the reason recorded, and the agent's retry is attempt 2", async () => {
    const llm = createScriptedLlm({ qir: ['{"triples": [["?b", "author"]]}', "not json at all", { triples: [["?b", "author", "X"]] }] });
    const r1 = await llm.gateway.call({ role: "qir", prompt: "q", schema: triples, attempt: 1 });
    expect(r1.ok).toBe(false);
    if (!r1.ok) expect(r1.reason).toMatch(/does not match the expected shape: triples\.0/);
    expect(r1.record.validationError).toBe(!r1.ok ? r1.reason : "");
    expect(r1.record.parsed).toBeUndefined();
    const r2 = await llm.gateway.call({ role: "qir", prompt: "q", schema: triples, attempt: 2 });
    expect(r2).toMatchObject({ ok: false, reason: "no JSON object or array found in the output" });
    const r3 = await llm.gateway.call({ role: "qir", prompt: "q", schema: triples, attempt: 3 });
    expect(r3.ok).toBe(true);
    expect(llm.gateway.records.map((r) => [r.attempt, r.validationError === undefined])).toEqual([
      [1, false],
      [2, false],
      [3, true],
    ]);
    expect(llm.remaining()).toEqual({});
  });

  it("empty output is ok:false, not a throw", async () => {
    const llm = createScriptedLlm({ answer: [""] });
    const r = await llm.gateway.call({ role: "answer", prompt: "q" });
    expect(r).toMatchObject({ ok: false, reason: "the model returned an empty response" });
  });

  it("reply functions see the prompt; per-role queues are independent; remaining() counts what is left", async () => {
    const llm = createScriptedLlm({
      translator: [(msgs) => (msgs.at(-1)!.text.includes("Wer") ? "Who wrote Dune?" : "??"), "unused"],
      classifier: ['{"type":"standalone"}'],
    });
    const t = await llm.gateway.call({ role: "translator", prompt: "Wer schrieb Dune?" });
    expect(t.text).toBe("Who wrote Dune?");
    const c = await llm.gateway.call({ role: "classifier", prompt: "x", schema: z.object({ type: z.enum(["standalone", "dependent"]) }) });
    expect(c.ok && c.value.type).toBe("standalone");
    expect(llm.remaining()).toEqual({ translator: 1 });
  });

  it("an exhausted queue fails with an error naming the role", async () => {
    const llm = createScriptedLlm({ vertex: [] });
    const e = await rejects(llm.gateway.call({ role: "vertex", prompt: "q" }));
    expect(e.message).toMatch(/no reply left for role "vertex"/);
  });

  it("the fallback responder answers roles without a queue", async () => {
    const llm = createScriptedLlm({}, { fallback: ({ role }) => `fallback for ${role}` });
    expect((await llm.gateway.call({ role: "rephraser", prompt: "q" })).text).toBe("fallback for rephraser");
  });

  it("maps scripted provider errors: 401 → llm_auth, 500 → llm_server after retries, timeout → llm_timeout", async () => {
    const llm = createScriptedLlm({ answer: [{ error: "401" }, { error: "500" }, { error: "500" }, { error: "500" }, { error: "timeout" }] });
    expect((await rejects(llm.gateway.call({ role: "answer", prompt: "q" }))).code).toBe("llm_auth");
    expect((await rejects(llm.gateway.call({ role: "answer", prompt: "q" }))).code).toBe("llm_server");
    expect((await rejects(llm.gateway.call({ role: "answer", prompt: "q" }))).code).toBe("llm_timeout");
    // 1 (auth) + 3 (server: first try + 2 retries) + 1 (timeout), each recorded with its error
    expect(llm.gateway.records.map((r) => r.error?.code)).toEqual(["llm_auth", "llm_server", "llm_server", "llm_server", "llm_timeout"]);
  });

  it("429 is retried honouring retry-after, then succeeds", async () => {
    const sleep = vi.fn(async () => {});
    const llm = createScriptedLlm({ answer: [{ error: "429", retryAfter: 2 }, "ok now"] }, { gateway: { sleep } });
    const r = await llm.gateway.call({ role: "answer", prompt: "q" });
    expect(r.text).toBe("ok now");
    expect(sleep).toHaveBeenCalledWith(2000, expect.any(AbortSignal));
    expect(llm.gateway.records.map((x) => x.error?.code)).toEqual(["llm_rate_limit", undefined]);
    expect(llm.gateway.records[0].error?.message).toMatch(/retrying in 2000 ms/);
  });

  it("a retry-after beyond the cap is not waited for", async () => {
    const sleep = vi.fn(async () => {});
    const llm = createScriptedLlm({ answer: [{ error: "429", retryAfter: 60 }] }, { gateway: { sleep } });
    const e = await rejects(llm.gateway.call({ role: "answer", prompt: "q" }));
    expect(e.code).toBe("llm_rate_limit");
    expect(e.details?.retryAfterSeconds).toBe(60);
    expect(sleep).not.toHaveBeenCalled();
  });

  it("lends its retry policy to agents that call the AI SDK themselves (withRetry); a gateway without one gets the default", async () => {
    const sleep = vi.fn(async () => {});
    const llm = createScriptedLlm({}, { gateway: { sleep, retry: { maxRetries: 1, baseDelayMs: 50 } } });
    const gateway = llm.gateway as RetryingLlmGateway;
    const runner = retryRunnerOf(gateway);
    expect(runner).toBe(gateway.withRetry);
    const failures: string[] = [];
    const hooks = {
      signal: new AbortController().signal,
      timeoutMs: 60_000,
      mapError: (e: unknown) => e as AppError,
      onFailure: (err: AppError, i: { willRetry: boolean; waitMs: number }) => failures.push(`${err.code} ${i.willRetry} ${i.waitMs}`),
    };
    let n = 0;
    const flaky = async () => {
      if (n++ === 0) throw new AppError("llm_server", "HTTP 503");
      return "ok";
    };
    expect(await runner(flaky, hooks)).toBe("ok");
    expect(sleep).toHaveBeenCalledWith(50, expect.any(AbortSignal));
    // maxRetries 1: the second failure is final; a non-retryable error is never retried
    n = 0;
    await expect(runner(async () => Promise.reject(new AppError("llm_server", "HTTP 500")), hooks)).rejects.toMatchObject({ code: "llm_server" });
    await expect(runner(async () => Promise.reject(new AppError("llm_auth", "401")), hooks)).rejects.toMatchObject({ code: "llm_auth" });
    expect(failures).toEqual(["llm_server true 50", "llm_server true 50", "llm_server false 100", "llm_auth false 50"]);
    // a double without withRetry (older tests) still gets the gateway's default policy
    const { withRetry: _own, ...bare } = gateway;
    expect(typeof retryRunnerOf(bare as LlmGateway)).toBe("function");
    expect(retryRunnerOf(bare as LlmGateway)).not.toBe(gateway.withRetry);
  });

  it("reject() marks a record as rejected by the agent's own validator", async () => {
    const updated: string[] = [];
    const llm = createScriptedLlm({ vertex: ['{"vertex": "dbr:Nowhere"}'] }, { gateway: { onUpdate: (r) => updated.push(r.id) } });
    const r = await llm.gateway.call({ role: "vertex", prompt: "q", schema: z.object({ vertex: z.string() }) });
    llm.gateway.reject(r.record.id, "vertex is not among the candidates");
    expect(llm.gateway.records[0].validationError).toBe("vertex is not among the candidates");
    expect(updated).toEqual([r.record.id]);
    expect(() => llm.gateway.reject("nope", "x")).toThrow(/No LLM call record/);
  });

  it("an already-aborted signal ends the call as aborted", async () => {
    const llm = createScriptedLlm({ answer: ["never"] });
    const ac = new AbortController();
    ac.abort();
    const e = await rejects(llm.gateway.call({ role: "answer", prompt: "q", signal: ac.signal }));
    expect(isAppError(e, "aborted")).toBe(true);
  });

  it("a slow scripted reply hits the gateway timeout", async () => {
    const llm = createScriptedLlm({ answer: [{ delayMs: 5000, then: "late" }] });
    const t = Date.now();
    const e = await rejects(llm.gateway.call({ role: "answer", prompt: "q", timeoutMs: 50 }));
    expect(e.code).toBe("llm_timeout");
    expect(Date.now() - t).toBeLessThan(1000);
  });

  it("scripted tool calls drive an AI SDK tool loop through resolve()", async () => {
    const llm = createScriptedLlm({ chat: [{ toolCall: { name: "askKg", input: { question: "Who wrote Dune?" } } }, "Frank Herbert."] });
    const asked: string[] = [];
    const r = await generateText({
      model: llm.resolve("chat").model,
      prompt: "Who wrote Dune?",
      tools: {
        askKg: tool({
          inputSchema: z.object({ question: z.string() }),
          execute: async ({ question }) => (asked.push(question), { answer: "Frank Herbert" }),
        }),
      },
      stopWhen: isStepCount(3),
    });
    expect(asked).toEqual(["Who wrote Dune?"]);
    expect(r.text).toBe("Frank Herbert.");
    expect(llm.calls.map((c) => c.tools)).toEqual([["askKg"], ["askKg"]]);
  });

  it("missing prompt and messages is a bad request", async () => {
    const llm = createScriptedLlm({});
    expect((await rejects(llm.gateway.call({ role: "answer" }))).code).toBe("bad_request");
  });
});
