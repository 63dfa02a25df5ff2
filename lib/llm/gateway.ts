// The recorded LLM gateway agents call: one generateText per attempt, timeout + abort, JSON/schema checks, every call recorded.
import { generateText, type ModelMessage } from "ai";
import type { z } from "zod";
import { AppError } from "@/lib/errors";
import { mapProviderError, redactSecrets } from "@/lib/llm/errors";
import { extractJson } from "@/lib/llm/json";
import type { LlmCallInput, LlmCallRecord, LlmCallResult, LlmGateway, ModelResolver } from "@/lib/llm/types";

/** Header that tells the local mock server (and logs) which agent is calling. */
export const ROLE_HEADER = "X-Chatty-Role";

export interface RetryPolicy {
  /** extra provider requests after a 429 or 5xx (0 = none); default 2 */
  maxRetries: number;
  /** first backoff when the provider gives no retry-after; doubles each time; default 500 ms */
  baseDelayMs: number;
  /** a retry-after longer than this is not waited for: the call fails with llm_rate_limit; default 10 s */
  maxDelayMs: number;
}

export interface LlmGatewayOptions {
  resolve: ModelResolver;
  defaults?: { timeoutMs?: number; temperature?: number; maxOutputTokens?: number };
  retry?: Partial<RetryPolicy>;
  /** called once per record as soon as it exists */
  onRecord?: (record: LlmCallRecord) => void;
  /** called after `reject` changed a record */
  onUpdate?: (record: LlmCallRecord) => void;
  /** strings (API keys) scrubbed from every record and error */
  secrets?: readonly string[];
  now?: () => number;
  /** waits between retries; injectable so tests need not sleep */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

export const DEFAULT_RETRY: RetryPolicy = { maxRetries: 2, baseDelayMs: 500, maxDelayMs: 10_000 };

/** How one provider request under the retry policy went wrong, told before the wait (or before giving up). */
export interface RetryFailure {
  /** 0 for the first request */
  providerTry: number;
  willRetry: boolean;
  /** the wait before the next request (retry-after, else the backoff) */
  waitMs: number;
}

export interface RetryHooks {
  /** ends the waits (the caller's timeout and abort) */
  signal: AbortSignal;
  /** the time the whole call may take, waits included (ms from the first request): no retry whose wait ends later */
  timeoutMs: number;
  /** maps what a request threw to an AppError (provider errors → llm_* codes) */
  mapError: (e: unknown) => AppError;
  /** told about every failed request, e.g. to record it */
  onFailure?: (err: AppError, info: RetryFailure) => void;
}

/**
 * Runs `request` under a retry policy: a 429 or 5xx is retried up to maxRetries times, after the provider's
 * retry-after (else baseDelayMs · 2^try); a retry-after beyond maxDelayMs or past the deadline is not waited for, the
 * call fails at once (llm_rate_limit). Other errors are not retried. Throws the mapped AppError.
 */
export type RetryRunner = <T>(request: (providerTry: number) => Promise<T>, hooks: RetryHooks) => Promise<T>;

/** A gateway that lends its retry policy to agents driving the AI SDK themselves (the Chat agent's tool calls). */
export interface RetryingLlmGateway extends LlmGateway {
  withRetry: RetryRunner;
}

export function createRetryRunner(
  policy: Partial<RetryPolicy> = {},
  deps: { now?: () => number; sleep?: (ms: number, signal: AbortSignal) => Promise<void> } = {},
): RetryRunner {
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...policy };
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  return async (request, hooks) => {
    const deadline = now() + hooks.timeoutMs;
    for (let providerTry = 0; ; providerTry++) {
      try {
        return await request(providerTry);
      } catch (e) {
        const err = hooks.mapError(e);
        const retryable = err.code === "llm_rate_limit" || err.code === "llm_server";
        const ra = err.details?.retryAfterSeconds as number | undefined;
        const waitMs = ra !== undefined ? ra * 1000 : retry.baseDelayMs * 2 ** providerTry;
        const willRetry = retryable && providerTry < retry.maxRetries && waitMs <= retry.maxDelayMs && now() + waitMs < deadline;
        hooks.onFailure?.(err, { providerTry, willRetry, waitMs });
        if (!willRetry) throw err;
        try {
          await sleep(waitMs, hooks.signal);
        } catch (abortReason) {
          throw hooks.mapError(abortReason);
        }
      }
    }
  };
}

/** The gateway's own retry runner, or one with the default policy for a gateway that has none (older test doubles). */
export function retryRunnerOf(llm: LlmGateway): RetryRunner {
  const own = (llm as Partial<RetryingLlmGateway>).withRetry;
  return typeof own === "function" ? own : createRetryRunner();
}

/** Short random id for records (8 url-safe chars). */
export function createRecordId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(6));
  return Buffer.from(bytes).toString("base64url");
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const t = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** Formats zod issues as "path: message; …" (short, model-readable, for re-prompting). */
export function formatZodIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((i) => `${i.path.length ? i.path.join(".") : "(root)"}: ${i.message}`)
    .join("; ");
}

function toolCallsAsText(toolCalls: readonly { toolName: string; input: unknown }[]): string {
  return toolCalls.length ? JSON.stringify(toolCalls.map((c) => ({ toolCall: { name: c.toolName, input: c.input } }))) : "";
}

/** Builds the gateway; create one per question/turn so `records` is that turn's trace. */
export function createLlmGateway(options: LlmGatewayOptions): RetryingLlmGateway {
  const { resolve, onRecord, onUpdate } = options;
  const secrets = options.secrets ?? [];
  const now = options.now ?? Date.now;
  const withRetry = createRetryRunner(options.retry, { now, sleep: options.sleep ?? abortableSleep });
  const defaults = { timeoutMs: 60_000, temperature: 0, ...options.defaults };
  const records: LlmCallRecord[] = [];

  const scrub = (s: string) => (secrets.length ? redactSecrets(s, secrets) : s);

  function record(r: LlmCallRecord): void {
    // Records reach traces and the browser: scrub keys from agent-built records too (the chat agent records its own).
    if (secrets.length) {
      r.rawOutput = scrub(r.rawOutput);
      if (r.error) r.error = { ...r.error, message: scrub(r.error.message) };
    }
    records.push(r);
    onRecord?.(r);
  }

  function reject(recordId: string, validationError: string): void {
    const r = records.find((x) => x.id === recordId);
    if (!r) throw new AppError("not_found", `No LLM call record with id ${recordId}.`);
    r.validationError = validationError;
    onUpdate?.(r);
  }

  async function call<T = string>(input: LlmCallInput<T>): Promise<LlmCallResult<T>> {
    if (input.prompt === undefined && (!input.messages || input.messages.length === 0)) {
      throw new AppError("bad_request", `LLM call for role "${input.role}" has neither a prompt nor messages.`);
    }
    const resolved = resolve(input.role);
    const messages: ModelMessage[] = input.messages ?? [{ role: "user", content: input.prompt ?? "" }];
    const recordedMessages: ModelMessage[] = input.system ? [{ role: "system", content: input.system }, ...messages] : messages;
    const attempt = input.attempt ?? 1;
    const timeoutMs = input.timeoutMs ?? defaults.timeoutMs;
    // One deadline for the whole call, retries and waits included; the caller's signal can end it sooner.
    const timeoutSignal = AbortSignal.timeout(timeoutMs);
    const signal = input.signal ? AbortSignal.any([input.signal, timeoutSignal]) : timeoutSignal;

    const base = (startedAt: number) => ({
      id: createRecordId(),
      role: input.role,
      provider: resolved.provider,
      model: resolved.modelId,
      messages: recordedMessages,
      attempt,
      startedAt,
    });

    const mapError = (e: unknown): AppError =>
      mapProviderError(e, { secrets, timedOut: timeoutSignal.aborted, aborted: input.signal?.aborted === true && !timeoutSignal.aborted });

    // Cancelled before we start: no request, no tokens spent.
    if (input.signal?.aborted) throw mapError(input.signal.reason);
    let startedAt = 0;
    const result = await withRetry(
      () => {
        startedAt = now();
        return generateText({
          model: resolved.model,
          system: input.system,
          messages,
          temperature: defaults.temperature,
          maxOutputTokens: defaults.maxOutputTokens,
          maxRetries: 0, // retries are ours: bounded, recorded, and honouring retry-after
          abortSignal: signal,
          headers: { [ROLE_HEADER]: input.role },
        });
      },
      {
        signal,
        timeoutMs,
        mapError,
        onFailure: (err, { willRetry, waitMs }) =>
          record({
            ...base(startedAt),
            rawOutput: "",
            latencyMs: now() - startedAt,
            tokensIn: 0,
            tokensOut: 0,
            error: { code: err.code, message: willRetry ? `${err.message} (retrying in ${Math.round(waitMs)} ms)` : err.message },
          }),
      },
    );
    const text = result.text;
    const rawOutput = scrub(text || toolCallsAsText(result.toolCalls));
    const rec: LlmCallRecord = {
      ...base(startedAt),
      rawOutput,
      latencyMs: now() - startedAt,
      tokensIn: result.usage.inputTokens ?? 0,
      tokensOut: result.usage.outputTokens ?? 0,
    };
    const outcome = check(text, result.toolCalls.length > 0, input.schema);
    if (outcome.ok) {
      if (input.schema) rec.parsed = outcome.value;
    } else {
      rec.validationError = outcome.reason;
    }
    record(rec);
    return outcome.ok
      ? { ok: true, text, value: outcome.value as T, record: rec }
      : { ok: false, text, reason: outcome.reason, record: rec };
  }

  return {
    call,
    resolve,
    withRetry,
    record,
    reject,
    get records() {
      return records;
    },
  };
}

function check(text: string, hadToolCalls: boolean, schema: z.ZodType | undefined): { ok: true; value: unknown } | { ok: false; reason: string } {
  if (!text.trim()) {
    return { ok: false, reason: hadToolCalls ? "the model called a tool instead of answering with text" : "the model returned an empty response" };
  }
  if (!schema) return { ok: true, value: text };
  const json = extractJson(text);
  if (!json.ok) return { ok: false, reason: json.reason };
  const parsed = schema.safeParse(json.value);
  if (!parsed.success) return { ok: false, reason: `the JSON does not match the expected shape: ${formatZodIssues(parsed.error)}` };
  return { ok: true, value: parsed.data };
}
