// A scripted LLM for unit tests: per-role reply queues behind MockLanguageModelV4, wrapped in a real gateway.
import { APICallError } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { createLlmGateway, type LlmGatewayOptions } from "@/lib/llm/gateway";
import type { AgentRole, LlmCallRecord, LlmGateway, ModelResolver, ResolvedModel } from "@/lib/llm/types";
import { contentText, normalizeReply, type NormalizedReply, type PlainMessage, type ReplyRequest, type ReplyValue, type Responder } from "@/lib/llm/testing/replies";

type DoGenerate = MockLanguageModelV4["doGenerate"];
type CallOptions = Parameters<DoGenerate>[0];
type GenerateResult = Awaited<ReturnType<DoGenerate>>;
type StreamResult = Awaited<ReturnType<MockLanguageModelV4["doStream"]>>;
type StreamPart = StreamResult["stream"] extends ReadableStream<infer P> ? P : never;

/** A reply, or a function of the prompt that returns one (to assert on what the agent sent). */
export type ScriptedReply = ReplyValue | ((messages: PlainMessage[], request: ReplyRequest) => ReplyValue | Promise<ReplyValue>);
export type Script = Partial<Record<AgentRole, ScriptedReply[]>>;

export interface ScriptedCall {
  role: AgentRole;
  messages: PlainMessage[];
  tools: string[];
  headers: Record<string, string | undefined>;
  reply: NormalizedReply;
}

export interface ScriptedLlmOptions {
  /** answers roles whose queue is empty or absent (e.g. createReplayResponder); otherwise that is an error */
  fallback?: Responder;
  /** gateway settings; retries default to instant waits */
  gateway?: Omit<LlmGatewayOptions, "resolve">;
}

export interface ScriptedLlm {
  gateway: LlmGateway;
  resolve: ModelResolver;
  /** replies left per role (roles with none left are omitted) */
  remaining(): Partial<Record<AgentRole, number>>;
  /** appends replies to a role's queue */
  push(role: AgentRole, ...replies: ScriptedReply[]): void;
  /** every model call, in order (header names lower-cased, e.g. headers["x-chatty-role"]) */
  calls: ScriptedCall[];
  records: readonly LlmCallRecord[];
}

export class ScriptExhaustedError extends Error {
  /** `rejected`: why the agent refused this role's previous reply, which is usually why it called again */
  constructor(readonly role: AgentRole, callNumber: number, readonly rejected?: string) {
    super(
      `Scripted LLM: no reply left for role "${role}" (call #${callNumber} for this role). Add replies to script.${role}.` +
        (rejected ? ` The previous ${role} reply was rejected by the agent (so it asked again): ${rejected}` : ""),
    );
    this.name = "ScriptExhaustedError";
  }
}

const stop = { unified: "stop" as const, raw: undefined };
const toolCalls = { unified: "tool-calls" as const, raw: undefined };

// Rough token estimate (4 chars ≈ 1 token) so traces and tests see non-zero, prompt-dependent counts.
const estimateTokens = (s: string) => Math.max(1, Math.ceil(s.length / 4));

function usage(inputText: string, outputText: string): GenerateResult["usage"] {
  const i = estimateTokens(inputText);
  const o = estimateTokens(outputText);
  return {
    inputTokens: { total: i, noCache: i, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: o, text: o, reasoning: undefined },
  };
}

function plainMessages(prompt: CallOptions["prompt"]): PlainMessage[] {
  return prompt.map((m) => ({ role: m.role, text: contentText(m.content) }));
}

function providerError(reply: Extract<NormalizedReply, { kind: "error" }>): Error {
  if (reply.status === "timeout") return new DOMException("The operation was aborted due to timeout", "TimeoutError");
  const status = reply.status;
  return new APICallError({
    message: reply.message,
    url: "scripted://llm",
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: reply.retryAfter !== undefined ? { "retry-after": String(reply.retryAfter) } : {},
    responseBody: JSON.stringify(reply.body ?? { error: { message: reply.message } }),
    isRetryable: status === 429 || status >= 500,
  });
}

function waitFor(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), reject(signal.reason)), { once: true });
  });
}

export function createScriptedLlm(script: Script = {}, options: ScriptedLlmOptions = {}): ScriptedLlm {
  const queues = new Map<AgentRole, ScriptedReply[]>();
  for (const [role, replies] of Object.entries(script) as [AgentRole, ScriptedReply[]][]) queues.set(role, [...replies]);
  const counts = new Map<AgentRole, number>();
  const calls: ScriptedCall[] = [];
  const models = new Map<AgentRole, ResolvedModel>();

  // why: a fixture reply the agent rejects (an option marker that matched nothing) shows up only as "no reply left"
  // on the retry; naming the rejection points at the faulty reply instead of at the missing one
  function lastRejection(role: AgentRole): string | undefined {
    const last = [...gateway.records].reverse().find((r) => r.role === role);
    return last?.validationError ?? (last?.error ? `${last.error.code}: ${last.error.message}` : undefined);
  }

  async function next(role: AgentRole, opts: CallOptions): Promise<NormalizedReply> {
    if (opts.abortSignal?.aborted) throw opts.abortSignal.reason;
    const n = (counts.get(role) ?? 0) + 1;
    counts.set(role, n);
    const messages = plainMessages(opts.prompt);
    const tools = (opts.tools ?? []).map((t) => t.name);
    const request: ReplyRequest = { role, messages, tools, model: `scripted:${role}` };
    const queued = queues.get(role)?.shift();
    let value: ReplyValue;
    if (queued !== undefined) value = typeof queued === "function" ? await queued(messages, request) : queued;
    else if (options.fallback) value = await options.fallback(request);
    else throw new ScriptExhaustedError(role, n, lastRejection(role));
    let reply = normalizeReply(value);
    calls.push({ role, messages, tools, headers: opts.headers ?? {}, reply });
    while (reply.kind === "delay") {
      await waitFor(reply.ms, opts.abortSignal);
      reply = reply.then;
    }
    if (reply.kind === "error") throw providerError(reply);
    return reply;
  }

  function model(role: AgentRole): MockLanguageModelV4 {
    return new MockLanguageModelV4({
      provider: "mock",
      modelId: `scripted:${role}`,
      doGenerate: async (opts) => {
        const reply = await next(role, opts);
        const input = plainMessages(opts.prompt).map((m) => m.text).join("\n");
        if (reply.kind === "tool") {
          const args = JSON.stringify(reply.input);
          return {
            content: [{ type: "tool-call", toolCallId: `call_${calls.length}`, toolName: reply.name, input: args }],
            finishReason: toolCalls,
            usage: usage(input, args),
            warnings: [],
          };
        }
        const text = (reply as { text: string }).text;
        return { content: [{ type: "text", text }], finishReason: stop, usage: usage(input, text), warnings: [] };
      },
      doStream: async (opts): Promise<StreamResult> => {
        const reply = await next(role, opts);
        const input = plainMessages(opts.prompt).map((m) => m.text).join("\n");
        const parts: StreamPart[] = [];
        let out: string;
        if (reply.kind === "tool") {
          out = JSON.stringify(reply.input);
          parts.push({ type: "tool-call", toolCallId: `call_${calls.length}`, toolName: reply.name, input: out });
        } else {
          out = (reply as { text: string }).text;
          parts.push({ type: "text-start", id: "t" });
          // a few deltas so streaming consumers see more than one chunk
          for (const piece of out.match(/[\s\S]{1,16}/g) ?? []) parts.push({ type: "text-delta", id: "t", delta: piece });
          parts.push({ type: "text-end", id: "t" });
        }
        parts.push({ type: "finish", finishReason: reply.kind === "tool" ? toolCalls : stop, usage: usage(input, out) });
        const stream = new ReadableStream<StreamPart>({
          start(controller) {
            for (const p of parts) controller.enqueue(p);
            controller.close();
          },
        });
        return { stream };
      },
    });
  }

  const resolve: ModelResolver = (role) => {
    let m = models.get(role);
    if (!m) {
      m = { provider: "mock", modelId: `scripted:${role}`, model: model(role) };
      models.set(role, m);
    }
    return m;
  };

  const gateway = createLlmGateway({ sleep: async () => {}, ...options.gateway, resolve });

  return {
    gateway,
    resolve,
    calls,
    get records() {
      return gateway.records;
    },
    push(role, ...replies) {
      const q = queues.get(role) ?? [];
      q.push(...replies);
      queues.set(role, q);
    },
    remaining() {
      const out: Partial<Record<AgentRole, number>> = {};
      for (const [role, q] of queues) if (q.length > 0) out[role] = q.length;
      return out;
    },
  };
}
