// A tiny OpenAI-compatible HTTP server on 127.0.0.1 for tests and e2e: replies come from a responder (per X-Chatty-Role).
//
// Standalone: npx tsx lib/llm/testing/mock-openai-server.ts --port 4010 --script rules.json   (or --replay replies.json)
// rules.json: [{ "role"?: "qir", "match"?: "regex on the last user message", "reply": <ReplyValue> }, …]  (first match wins)
import http from "node:http";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { z } from "zod";
import {
  contentText,
  createReplayResponder,
  lastUserText,
  normalizeReply,
  type NormalizedReply,
  type ReplyValue,
  type Responder,
} from "@/lib/llm/testing/replies";

export interface MockRequestLog {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: unknown;
  role: string;
}

export interface MockOpenAIServer {
  /** e.g. http://127.0.0.1:43123/v1 — pass as baseURL */
  baseURL: string;
  port: number;
  requests: MockRequestLog[];
  close(): Promise<void>;
}

export interface MockServerOptions {
  responder: Responder;
  /** 0 = random free port */
  port?: number;
  /** when set, requests without `Authorization: Bearer <apiKey>` get a 401 */
  apiKey?: string;
  /** models listed by GET /v1/models */
  models?: string[];
}

const ROLE_HEADER = "x-chatty-role";
const tokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

const chatBodySchema = z.object({
  model: z.string(),
  messages: z.array(z.object({ role: z.string(), content: z.unknown().optional() }).loose()),
  stream: z.boolean().optional(),
  tools: z.array(z.object({ function: z.object({ name: z.string() }).loose() }).loose()).optional(),
}).loose();

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

function errorBody(message: string, status: number) {
  const type = status === 401 ? "invalid_request_error" : status === 429 ? "rate_limit_exceeded" : status >= 500 ? "server_error" : "invalid_request_error";
  return { error: { message, type, code: null } };
}

/** Waits `ms`, or resolves early (false) when the client goes away. */
function waitUnlessClosed(ms: number, res: http.ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const t = setTimeout(() => (res.off("close", onClose), resolve(true)), ms);
    const onClose = () => (clearTimeout(t), resolve(false));
    res.once("close", onClose);
  });
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  let body = "";
  for await (const chunk of req) body += chunk;
  return body;
}

function completion(model: string, reply: NormalizedReply & { kind: "text" | "tool" }, promptTokens: number) {
  const id = `chatcmpl-${Math.random().toString(36).slice(2, 10)}`;
  if (reply.kind === "tool") {
    const args = JSON.stringify(reply.input);
    return {
      id,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: null, tool_calls: [{ id: `call_${id.slice(9)}`, type: "function", function: { name: reply.name, arguments: args } }] },
          finish_reason: "tool_calls",
        },
      ],
      usage: { prompt_tokens: promptTokens, completion_tokens: tokens(args), total_tokens: promptTokens + tokens(args) },
    };
  }
  return {
    id,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content: reply.text }, finish_reason: "stop" }],
    usage: { prompt_tokens: promptTokens, completion_tokens: tokens(reply.text), total_tokens: promptTokens + tokens(reply.text) },
  };
}

function streamCompletion(res: http.ServerResponse, model: string, reply: NormalizedReply & { kind: "text" | "tool" }, promptTokens: number): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const base = { id: `chatcmpl-${Math.random().toString(36).slice(2, 10)}`, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000), model };
  const send = (delta: unknown, finish: string | null, extra: Record<string, unknown> = {}) =>
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
  let out: string;
  if (reply.kind === "tool") {
    out = JSON.stringify(reply.input);
    send({ role: "assistant", tool_calls: [{ index: 0, id: `call_${base.id.slice(9)}`, type: "function", function: { name: reply.name, arguments: "" } }] }, null);
    for (const piece of out.match(/[\s\S]{1,12}/g) ?? []) send({ tool_calls: [{ index: 0, function: { arguments: piece } }] }, null);
  } else {
    out = reply.text;
    send({ role: "assistant", content: "" }, null);
    for (const piece of out.match(/[\s\S]{1,12}/g) ?? []) send({ content: piece }, null);
  }
  const usage = { prompt_tokens: promptTokens, completion_tokens: tokens(out), total_tokens: promptTokens + tokens(out) };
  send({}, reply.kind === "tool" ? "tool_calls" : "stop", { usage });
  res.end("data: [DONE]\n\n");
}

/** Starts the server; resolves once it listens. */
export async function startMockOpenAIServer(options: MockServerOptions): Promise<MockOpenAIServer> {
  const requests: MockRequestLog[] = [];
  const models = options.models ?? ["mock-model"];

  const server = http.createServer(async (req, res) => {
    try {
      const raw = await readBody(req);
      const role = String(req.headers[ROLE_HEADER] ?? "chat");
      let body: unknown = undefined;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        return sendJson(res, 400, errorBody("Request body is not JSON.", 400));
      }
      requests.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers, body, role });

      if (options.apiKey !== undefined && req.headers.authorization !== `Bearer ${options.apiKey}`) {
        return sendJson(res, 401, errorBody("Incorrect API key provided.", 401));
      }
      const path = (req.url ?? "").split("?")[0];
      if (req.method === "GET" && path === "/v1/models") {
        return sendJson(res, 200, { object: "list", data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "mock" })) });
      }
      if (req.method !== "POST" || path !== "/v1/chat/completions") {
        return sendJson(res, 404, errorBody(`No route ${req.method} ${path}.`, 404));
      }
      const parsed = chatBodySchema.safeParse(body);
      if (!parsed.success) return sendJson(res, 400, errorBody(`Invalid chat request: ${parsed.error.issues[0]?.message}`, 400));
      const chat = parsed.data;
      const messages = chat.messages.map((m) => ({ role: m.role, text: contentText(m.content) }));
      const promptTokens = tokens(messages.map((m) => m.text).join("\n"));

      let reply: NormalizedReply;
      try {
        reply = normalizeReply(
          await options.responder({ role, messages, tools: (chat.tools ?? []).map((t) => t.function.name), model: chat.model, body }),
        );
      } catch (e) {
        // 400, not 5xx: a missing rule is a test bug and should fail fast rather than be retried
        return sendJson(res, 400, errorBody(`mock server: ${e instanceof Error ? e.message : String(e)}`, 400));
      }
      while (reply.kind === "delay") {
        if (!(await waitUnlessClosed(reply.ms, res))) return;
        reply = reply.then;
      }
      if (reply.kind === "error") {
        if (reply.status === "timeout") {
          await waitUnlessClosed(10 * 60_000, res); // hang until the client gives up
          if (!res.writableEnded && !res.destroyed) sendJson(res, 504, errorBody("mock server: timed out", 504));
          return;
        }
        const headers: Record<string, string> = reply.retryAfter !== undefined ? { "retry-after": String(reply.retryAfter) } : {};
        return sendJson(res, reply.status, reply.body ?? errorBody(reply.message, reply.status), headers);
      }
      if (chat.stream) return streamCompletion(res, chat.model, reply, promptTokens);
      return sendJson(res, 200, completion(chat.model, reply, promptTokens));
    } catch (e) {
      if (!res.headersSent) sendJson(res, 500, errorBody(`mock server crashed: ${e instanceof Error ? e.message : String(e)}`, 500));
      else res.end();
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections(); // also ends requests hanging on a delay
        server.close(() => resolve());
      }),
  };
}

const ruleSchema = z.object({
  role: z.string().optional(),
  match: z.string().optional(),
  /** regex on the last message of any role (e.g. the last tool result of a tool-calling loop) */
  last: z.string().optional(),
  reply: z.unknown(),
});
const rulesFileSchema = z.union([z.array(ruleSchema), z.object({ rules: z.array(ruleSchema) }).transform((f) => f.rules)]);
export type MockRule = z.infer<typeof ruleSchema>;

/**
 * Responder from rules: first rule whose role matches, whose `match` regex (case-insensitive) hits the last user message
 * and whose `last` regex (if any) hits the last message of any role.
 */
export function rulesResponder(rules: MockRule[]): Responder {
  const compiled = rules.map((r) => ({
    ...r,
    regex: r.match !== undefined ? new RegExp(r.match, "i") : undefined,
    lastRegex: r.last !== undefined ? new RegExp(r.last, "i") : undefined,
  }));
  return ({ role, messages }) => {
    const last = lastUserText(messages);
    const final = messages[messages.length - 1]?.text ?? "";
    const hit = compiled.find((r) => (r.role === undefined || r.role === role) && (!r.regex || r.regex.test(last)) && (!r.lastRegex || r.lastRegex.test(final)));
    if (!hit) throw new Error(`no rule for role "${role}" and message "${last.slice(0, 120)}"`);
    return hit.reply as ReplyValue;
  };
}

export function loadRules(file: string): MockRule[] {
  const parsed = rulesFileSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`Rules file ${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  return parsed.data;
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const script = arg("script");
  const replay = arg("replay");
  if (!script && !replay) {
    console.error("usage: mock-openai-server.ts [--port 4010] (--script rules.json | --replay replies.json) [--api-key KEY]");
    process.exit(2);
  }
  const responder = script ? rulesResponder(loadRules(script)) : createReplayResponder(replay!);
  const srv = await startMockOpenAIServer({ responder, port: Number(arg("port") ?? 4010), apiKey: arg("api-key") });
  console.log(`mock OpenAI server listening on ${srv.baseURL}`);
  const stop = () => void srv.close().then(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
