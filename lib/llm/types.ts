// What the agents see of an LLM: a role-aware call that is always recorded, and never throws for bad output.
import type { LanguageModel, ModelMessage } from "ai";
import type { z } from "zod";
import type { AppError } from "@/lib/errors";

/** Every agent that talks to a model has a role; models and traces are keyed by it. */
export const AGENT_ROLES = [
  "chat", // tool-calling Chat agent: routes to the KG tool or answers about the conversation
  "translator", // non-English question -> English, answer -> user's language
  "classifier", // self-contained vs context-dependent
  "rephraser", // context-dependent -> standalone question
  "qir", // question intermediate representation (triples)
  "vertex", // choose a KG vertex among candidates
  "predicates", // choose predicates for query planning
  "answer", // natural-language answer (FA)
  "baseline", // benchmark baselines (LLM only, one-shot text-to-SPARQL)
  "generalist", // Triad G-agent: triplets, SPARQL template with slots, answer type
  "decider", // Triad D-agent: entity, relation and query selection among candidates
  "advisor", // Triad A-agent: answer from the model's own knowledge (only behind allowModelKnowledge)
  "retrieval", // RAGONITE's tool-calling retrieval agent (SQL over the induced database, search over verbalized facts)
  "explorer", // explorer strategy: plans, explores the KG with tools and writes the final SPARQL
  "one-call", // one-call strategy: writes the SPARQL from examples and schema cards in one call (and its repairs)
  "query-writer", // Chatty-KG: writes the query of an analytic question from the linked vertices, predicates and classes
  "onboarding", // KG onboarding: writes questions for the generated example queries, in batches (lib/kg/onboarding)
] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

export type ProviderId = "openai" | "google" | "openai-compatible" | "mock";

/** One LLM call as the derivation panel and the benchmarks see it. */
export interface LlmCallRecord {
  id: string;
  role: AgentRole;
  provider: ProviderId;
  model: string;
  messages: ModelMessage[];
  /** raw text the model returned (tool calls are serialised as JSON) */
  rawOutput: string;
  /** the parsed value, when a schema was given and the output matched it */
  parsed?: unknown;
  /** why the output was rejected (JSON syntax, schema mismatch, or an agent's validator) */
  validationError?: string;
  /** 1-based attempt number within the agent's retry loop */
  attempt: number;
  startedAt: number;
  latencyMs: number;
  tokensIn: number;
  tokensOut: number;
  /** set when the provider call itself failed (401, 429, 5xx, timeout, abort) */
  error?: { code: string; message: string };
}

export interface ResolvedModel {
  provider: ProviderId;
  modelId: string;
  model: LanguageModel;
}

/** Resolves the model for an agent role (per-role overrides fall back to the provider's default). */
export type ModelResolver = (role: AgentRole) => ResolvedModel;

export interface LlmCallInput<T> {
  role: AgentRole;
  system?: string;
  /** either a prompt string or full messages */
  prompt?: string;
  messages?: ModelMessage[];
  /** when given, the output is parsed as JSON (fences and prose around it tolerated) and validated */
  schema?: z.ZodType<T>;
  attempt?: number;
  signal?: AbortSignal;
  timeoutMs?: number;
}

export type LlmCallResult<T> =
  | { ok: true; text: string; value: T; record: LlmCallRecord }
  | { ok: false; text: string; reason: string; record: LlmCallRecord };

/**
 * The gateway agents get as a dependency. Output that fails JSON/schema validation comes back as
 * `{ ok: false, reason }` so the agent can retry; provider failures throw AppError (llm_* codes).
 */
export interface LlmGateway {
  call<T = string>(input: LlmCallInput<T>): Promise<LlmCallResult<T>>;
  /** For tool-calling agents that drive the AI SDK directly; they report their calls via `record`. */
  resolve: ModelResolver;
  record(record: LlmCallRecord): void;
  /** Marks a recorded call as rejected by an agent's own validator (shown in the trace). */
  reject(recordId: string, validationError: string): void;
  readonly records: readonly LlmCallRecord[];
}

export type LlmError = AppError;
