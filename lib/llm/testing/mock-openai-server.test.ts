import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { streamText, isStepCount, tool } from "ai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { z } from "zod";
import { rulesResponder, startMockOpenAIServer, type MockOpenAIServer } from "@/lib/llm/testing/mock-openai-server";
import { createReplayResponder } from "@/lib/llm/testing/replies";

let srv: MockOpenAIServer | undefined;
afterEach(async () => {
  await srv?.close();
  srv = undefined;
});

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${srv!.baseURL}/chat/completions`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });

describe("mock OpenAI server", () => {
  it("answers chat completions per role with usage, and lists models", async () => {
    srv = await startMockOpenAIServer({ responder: ({ role, messages }) => `${role}: ${messages.at(-1)!.text}`, models: ["a", "b"] });
    const r = await post({ model: "a", messages: [{ role: "user", content: "hi" }] }, { "X-Chatty-Role": "qir" });
    const j = await r.json();
    expect(j.choices[0].message.content).toBe("qir: hi");
    expect(j.usage).toMatchObject({ prompt_tokens: 1, completion_tokens: 2 });
    const d = await (await post({ model: "a", messages: [{ role: "user", content: [{ type: "text", text: "parts" }] }] })).json();
    expect(d.choices[0].message.content).toBe("chat: parts"); // no header → role "chat"
    const models = await (await fetch(`${srv.baseURL}/models`)).json();
    expect(models.data.map((m: { id: string }) => m.id)).toEqual(["a", "b"]);
    expect(srv.requests.map((q) => q.role)).toEqual(["qir", "chat", "chat"]);
  });

  it("streams text and tool calls over SSE that the AI SDK understands", async () => {
    const replies = [{ toolCall: { name: "lookup", input: { label: "Dune" } } }, "Dune is a novel by Frank Herbert, published in 1965."];
    srv = await startMockOpenAIServer({ responder: () => replies.shift()! });
    const local = createOpenAICompatible({ name: "local", baseURL: srv.baseURL, includeUsage: true });
    const looked: string[] = [];
    const r = streamText({
      model: local.chatModel("m"),
      prompt: "Tell me about Dune",
      tools: { lookup: tool({ inputSchema: z.object({ label: z.string() }), execute: async ({ label }) => (looked.push(label), "a novel") }) },
      stopWhen: isStepCount(3),
    });
    let text = "";
    let chunks = 0;
    for await (const d of r.textStream) {
      text += d;
      chunks++;
    }
    expect(looked).toEqual(["Dune"]);
    expect(text).toBe("Dune is a novel by Frank Herbert, published in 1965.");
    expect(chunks).toBeGreaterThan(1);
    expect((await r.totalUsage).outputTokens).toBeGreaterThan(0);
    expect((srv.requests[0].body as { stream: boolean }).stream).toBe(true);
  });

  it("returns HTTP errors with retry-after and exact bodies; checks the API key when given", async () => {
    const replies = [{ error: 429, retryAfter: 3 }, { status: 503, body: { error: { message: "overloaded" } } }];
    srv = await startMockOpenAIServer({ responder: () => replies.shift()!, apiKey: "k-right" });
    expect((await post({ model: "m", messages: [] }, { authorization: "Bearer k-wrong" })).status).toBe(401);
    const r429 = await post({ model: "m", messages: [] }, { authorization: "Bearer k-right" });
    expect(r429.status).toBe(429);
    expect(r429.headers.get("retry-after")).toBe("3");
    const r503 = await post({ model: "m", messages: [] }, { authorization: "Bearer k-right" });
    expect(r503.status).toBe(503);
    expect(await r503.json()).toEqual({ error: { message: "overloaded" } });
  });

  it("rules: first rule matching role and regex wins; no rule is a 400 that names role and message", async () => {
    srv = await startMockOpenAIServer({
      responder: rulesResponder([
        { role: "translator", match: "^wer", reply: "Who?" },
        { match: "dune", reply: { json: { vertex: "dbr:Dune_(novel)" } } },
      ]),
    });
    const say = async (content: string, role: string) => post({ model: "m", messages: [{ role: "user", content }] }, { "X-Chatty-Role": role });
    expect((await (await say("Wer ist das?", "translator")).json()).choices[0].message.content).toBe("Who?");
    expect((await (await say("about Dune", "vertex")).json()).choices[0].message.content).toBe('{"vertex":"dbr:Dune_(novel)"}');
    const miss = await say("Wer?", "qir");
    expect(miss.status).toBe(400);
    expect((await miss.json()).error.message).toMatch(/no rule for role "qir" and message "Wer\?"/);
  });

  it("rules: `last` matches the last message of any role, so a tool-calling loop can be scripted step by step", () => {
    const responder = rulesResponder([
      { role: "explorer", match: "harry potter", last: "^1 row", reply: "third" },
      { role: "explorer", match: "harry potter", last: "^Entities for", reply: "second" },
      { role: "explorer", match: "harry potter", reply: "first" },
    ]);
    const ask = (...messages: { role: string; text: string }[]) => responder({ role: "explorer", messages, tools: [], model: "m" });
    const user = { role: "user", text: "Question: Who wrote Harry Potter?" };
    expect(ask(user)).toBe("first");
    expect(ask(user, { role: "assistant", text: "" }, { role: "tool", text: 'Entities for "Harry Potter":' })).toBe("second");
    expect(ask(user, { role: "tool", text: 'Entities for "Harry Potter":' }, { role: "tool", text: "1 row, 1 column" })).toBe("third");
  });

  it("replay responder picks replies by role and question substring", async () => {
    const dir = mkdtempSync(join(tmpdir(), "replay-"));
    const file = join(dir, "replies.json");
    writeFileSync(file, JSON.stringify({ replies: [{ role: "qir", question: "frank herbert", reply: { json: { triples: [] } } }, { question: "dune", reply: "D" }] }));
    const responder = createReplayResponder(file);
    const msgs = (text: string) => [{ role: "user", text }];
    expect(responder({ role: "qir", messages: msgs("Books by Frank Herbert?"), tools: [], model: "m" })).toEqual({ json: { triples: [] } });
    expect(responder({ role: "answer", messages: msgs("Dune?"), tools: [], model: "m" })).toBe("D");
    expect(() => responder({ role: "answer", messages: msgs("Other"), tools: [], model: "m" })).toThrow(/no reply for role "answer"/);
  });

  it("runs standalone with --script", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rules-"));
    const file = join(dir, "rules.json");
    writeFileSync(file, JSON.stringify([{ reply: "from the standalone server" }]));
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn(process.execPath, ["--import", "tsx", "lib/llm/testing/mock-openai-server.ts", "--port", String(port), "--script", file], {
      cwd: process.cwd(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        let out = "";
        child.stdout.on("data", (d) => ((out += d), out.includes("listening") && resolve()));
        child.stderr.on("data", (d) => (out += d));
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const r = await fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }),
      });
      expect((await r.json()).choices[0].message.content).toBe("from the standalone server");
    } finally {
      child.kill("SIGTERM");
    }
  });
});
