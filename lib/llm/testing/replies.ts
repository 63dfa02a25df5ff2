// The reply language shared by the scripted model and the mock OpenAI server, plus a replay responder read from a JSON file.
import { readFileSync } from "node:fs";
import { z } from "zod";

/**
 * What a script says the model answers:
 *  - "text"                               plain text
 *  - { json: value } / any other object   JSON.stringify(value) as text (use a string for JSON that looks like the forms below)
 *  - { text: "…" }                        plain text
 *  - { toolCall: { name, input } }         one tool call
 *  - { error: "429"|"401"|"500"|"timeout"|status, retryAfter?: seconds, message? }   a provider failure
 *  - { status, body?, retryAfter? }        an HTTP error with this exact body (mock server; the scripted model uses body.error.message)
 *  - { delayMs, then: reply }              answer after a delay (for timeouts against the mock server)
 */
export type ReplyValue =
  | string
  | { json: unknown }
  | { text: string }
  | { toolCall: { name: string; input: unknown } }
  | { error: ErrorKind; retryAfter?: number; message?: string }
  | { status: number; body?: unknown; retryAfter?: number }
  | { delayMs: number; then?: ReplyValue }
  | Record<string, unknown>
  | unknown[];

export type ErrorKind = "429" | "401" | "403" | "500" | "503" | "timeout" | number;

export type NormalizedReply =
  | { kind: "text"; text: string }
  | { kind: "tool"; name: string; input: unknown }
  | { kind: "error"; status: number | "timeout"; retryAfter?: number; message: string; body?: unknown }
  | { kind: "delay"; ms: number; then: NormalizedReply };

/** A message as both the SDK prompt and OpenAI requests carry it, reduced to role + text. */
export interface PlainMessage {
  role: string;
  text: string;
}

export interface ReplyRequest {
  /** agent role (X-Chatty-Role header for the server, resolve(role) for the scripted model) */
  role: string;
  messages: PlainMessage[];
  /** names of the tools offered */
  tools: string[];
  model: string;
  /** the raw request body (mock server only) */
  body?: unknown;
}

export type Responder = (request: ReplyRequest) => ReplyValue | Promise<ReplyValue>;

const DEFAULT_ERROR_MESSAGES: Record<string, string> = {
  "401": "Incorrect API key provided.",
  "403": "Forbidden.",
  "429": "Rate limit reached for requests.",
  "500": "The server had an error while processing your request.",
  "503": "The engine is currently overloaded.",
};

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function onlyKeys(o: Record<string, unknown>, allowed: string[], required: string): boolean {
  return required in o && Object.keys(o).every((k) => allowed.includes(k));
}

export function normalizeReply(reply: ReplyValue): NormalizedReply {
  if (typeof reply === "string") return { kind: "text", text: reply };
  const r: unknown = reply;
  if (isObj(r)) {
    const reply = r;
    if (onlyKeys(reply, ["text"], "text") && typeof reply.text === "string") return { kind: "text", text: reply.text };
    if (onlyKeys(reply, ["json"], "json")) return { kind: "text", text: JSON.stringify(reply.json) };
    if (onlyKeys(reply, ["toolCall"], "toolCall") && isObj(reply.toolCall) && typeof reply.toolCall.name === "string") {
      return { kind: "tool", name: reply.toolCall.name, input: reply.toolCall.input ?? {} };
    }
    if (onlyKeys(reply, ["error", "retryAfter", "message"], "error") && (typeof reply.error === "string" || typeof reply.error === "number")) {
      const status = reply.error === "timeout" ? "timeout" : Number(reply.error);
      if (status === "timeout" || (Number.isInteger(status) && status >= 400)) {
        const message = typeof reply.message === "string" ? reply.message : (DEFAULT_ERROR_MESSAGES[String(status)] ?? `HTTP ${status}`);
        return { kind: "error", status, retryAfter: typeof reply.retryAfter === "number" ? reply.retryAfter : undefined, message };
      }
    }
    if (onlyKeys(reply, ["status", "body", "retryAfter"], "status") && typeof reply.status === "number" && reply.status >= 400) {
      const b = reply.body as { error?: { message?: unknown } } | undefined;
      const message = typeof b?.error?.message === "string" ? b.error.message : (DEFAULT_ERROR_MESSAGES[String(reply.status)] ?? `HTTP ${reply.status}`);
      return { kind: "error", status: reply.status, retryAfter: typeof reply.retryAfter === "number" ? reply.retryAfter : undefined, message, body: reply.body };
    }
    if (onlyKeys(reply, ["delayMs", "then"], "delayMs") && typeof reply.delayMs === "number") {
      return { kind: "delay", ms: reply.delayMs, then: normalizeReply((reply.then as ReplyValue | undefined) ?? "") };
    }
  }
  return { kind: "text", text: JSON.stringify(reply) };
}

/** Text of a message content in either shape (string, or parts with `text`). */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((p) => (isObj(p) && typeof p.text === "string" ? p.text : isObj(p) && p.type === "tool-result" ? toolResultText(p.output) : ""))
      .filter(Boolean)
      .join("\n");
  }
  return "";
}

/** A tool result as text (so scripted replies can see what a tool returned to the model). */
function toolResultText(output: unknown): string {
  if (!isObj(output)) return "";
  if (typeof output.value === "string") return output.value;
  return output.value === undefined ? "" : JSON.stringify(output.value);
}

export function lastUserText(messages: readonly PlainMessage[]): string {
  return [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
}

const replayFileSchema = z.object({
  replies: z.array(
    z.object({
      role: z.string().optional(),
      /** case-insensitive substring of any user message */
      question: z.string().optional(),
      reply: z.unknown(),
    }),
  ),
});

/**
 * Replies looked up by role + question substring from a JSON file `{ replies: [{ role?, question?, reply }] }`
 * (first matching entry wins). For benchmarks and demos without a real model.
 */
export function createReplayResponder(file: string): Responder {
  const parsed = replayFileSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success) throw new Error(`Replay file ${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const entries = parsed.data.replies;
  return ({ role, messages }) => {
    const userTexts = messages.filter((m) => m.role === "user").map((m) => m.text.toLowerCase());
    const hit = entries.find(
      (e) => (e.role === undefined || e.role === role) && (e.question === undefined || userTexts.some((t) => t.includes(e.question!.toLowerCase()))),
    );
    if (!hit) throw new Error(`Replay file ${file} has no reply for role "${role}" and question "${lastUserText(messages).slice(0, 120)}".`);
    return hit.reply as ReplyValue;
  };
}
