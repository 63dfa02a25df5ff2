// Runs one conversation turn for the web app: save the question, run the strategy, stream and store its events and result.
import "server-only";
import { createUIMessageStream, type InferUIMessageChunk } from "ai";
import { AppError, isAppError, toAppError } from "@/lib/errors";
import {
  rerunRequestSchema,
  retryRequestSchema,
  turnRequestSchema,
  type ChatUIMessage,
  type LlmOverride,
  type TurnErrorData,
  type TurnResultData,
  type TurnStartData,
} from "@/lib/api/contract";
import type { DialogueRecord, Queries, TurnRecord } from "@/lib/db/queries";
import type { Similarity } from "@/lib/embeddings/types";
import type { LlmGateway } from "@/lib/llm/types";
import {
  pipelineConfigSchema,
  type DerivationEvent,
  type DialogueTurn,
  type PipelineConfig,
  type Strategy,
  type TurnResult,
} from "@/lib/pipeline/types";
import type { AttemptChange, Correction } from "@/lib/pipeline/corrections";
import { finalQueryRerun, guardEditedQuery, rerunFor } from "@/lib/pipeline/common/final-query-rerun";
import type { KgAccess, KgRegistry } from "./kg-registry";
import { parseWith } from "./http";
import { uiMessageSseResponse } from "./sse";
import { logError, logWarn, redactValue, safeError } from "./security";
import { kgSources } from "./turn-sources";

export const TITLE_MAX = 80;
// 1 s: a reload mid-turn still shows progress, and a busy server does a quarter of the trace rewrites it did at 250 ms
export const DEFAULT_FLUSH_MS = 1000;
export const STOPPED_MESSAGE = "Stopped by the user";

/** A ready gateway plus what it runs, for the turn's stored config. */
export interface TurnLlm {
  gateway: LlmGateway;
  provider: string;
  model: string;
}

export interface TurnRunnerDeps {
  queries: Queries;
  registry: KgRegistry;
  getStrategy: (id: string) => Strategy;
  /** env config merged with the request's override; throws AppError("llm_not_configured") when there is none */
  createLlm: (override: LlmOverride | undefined) => TurnLlm;
  /** the (process-wide, cached) similarity for relation linking */
  similarity: (signal?: AbortSignal) => Promise<Similarity>;
  /** the KG's default strategy (lib/server/default-strategy.ts), for a request that names none */
  defaultStrategy?: (sessionId: string, kgId: string) => Promise<string>;
  /** ms between batched trace writes while a turn runs */
  flushMs?: number;
  now?: () => number;
}

/** Everything known once the question is saved; the stream runs the rest. */
export interface PreparedTurn {
  sessionId: string;
  turn: TurnRecord;
  start: TurnStartData;
  kg: KgAccess;
  config: PipelineConfig;
  dialogue: DialogueTurn[];
  /** the LLM, or why there is none (the turn then fails at once, with the question already saved) */
  llm: TurnLlm | AppError;
  /** a re-run after the user's correction: what it starts from (the strategy's `rerun` runs instead of `run`) */
  rerun?: { correction: Correction; snapshot: unknown; baseTrace: DerivationEvent[]; standaloneQuestion: string | null };
}

/** The conversation title for its first question: whitespace collapsed, at most 80 characters. */
export function titleFor(question: string): string {
  const t = question.replace(/\s+/g, " ").trim();
  return t.length <= TITLE_MAX ? t : `${t.slice(0, TITLE_MAX - 1).trimEnd()}…`;
}

function emptyStats(ms = 0): TurnResult["stats"] {
  return { ms, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 0, stageMs: {} };
}

/** A TurnResult for a turn that ended without the strategy returning one (thrown error, stop). */
export function failedResult(error: TurnErrorData, ms = 0): TurnResult {
  return { answer: { kind: "none", reason: error.message }, source: "failed", sparql: [], error, stats: emptyStats(ms) };
}

function dialogueBefore(turns: DialogueRecord["turns"], index: number): DialogueTurn[] {
  // only answered turns are context: a failed or stopped turn has no answer the next question could refer to
  return turns.filter((t) => t.index < index && t.status === "done").map((t) => ({ question: t.question, answer: t.answer }));
}

const ABORTED = Symbol("aborted");

function whenAborted(signal: AbortSignal | undefined): Promise<typeof ABORTED> {
  return new Promise((resolve) => {
    if (!signal) return;
    if (signal.aborted) return resolve(ABORTED);
    signal.addEventListener("abort", () => resolve(ABORTED), { once: true });
  });
}

/** What a run is stored with: its parameters, the KG and (when there is one) the model. */
function storedConfig(config: PipelineConfig, kg: { id: string; name?: string }, llm: TurnLlm | AppError) {
  return { ...config, kg, ...(llm instanceof AppError ? {} : { llm: { provider: llm.provider, model: llm.model } }) };
}

export function createTurnRunner(deps: TurnRunnerDeps) {
  const { queries, registry } = deps;
  const now = deps.now ?? Date.now;
  const flushMs = deps.flushMs ?? DEFAULT_FLUSH_MS;

  function tryLlm(override: LlmOverride | undefined): TurnLlm | AppError {
    try {
      return deps.createLlm(override);
    } catch (e) {
      // the request's own bad choice (a base URL off the allow-list, a base URL for another provider) is refused
      // before anything is saved; a server without a usable LLM fails the turn, with the question kept
      if (isAppError(e, "url_forbidden") || isAppError(e, "bad_request")) throw e;
      return toAppError(e, "llm_not_configured");
    }
  }

  /** POST /api/turns: validates, creates the conversation if needed, and saves the question (status "running"). */
  async function prepareTurn(sessionId: string, body: unknown): Promise<PreparedTurn> {
    const req = parseWith(turnRequestSchema, body, "request body");
    const kg = await registry.access(sessionId, req.kgId);
    // no strategy in the request (API and MCP callers, a client that leaves it to the server): the KG's default
    const strategy = req.config?.strategy ?? (await deps.defaultStrategy?.(sessionId, kg.id));
    const config = pipelineConfigSchema.parse({ ...req.config, ...(strategy ? { strategy } : {}) });
    deps.getStrategy(config.strategy); // unknown strategy: a 400 before anything is saved
    const llm = tryLlm(req.llm);
    let conversationId = req.conversationId;
    let title: string;
    let turns: DialogueRecord["turns"] = [];
    const newConversation = conversationId === undefined;
    if (conversationId === undefined) {
      title = titleFor(req.question);
      conversationId = (await queries.createConversation({ sessionId, title, kgId: kg.id })).id;
    } else {
      // questions and answers only: the earlier turns' traces are not read for the context
      const conversation = await queries.getDialogue({ sessionId, conversationId });
      title = conversation.title;
      turns = conversation.turns;
    }
    const turn = await queries.createTurn({
      sessionId,
      conversationId,
      question: req.question,
      config: storedConfig(config, { id: kg.id, name: kg.name }, llm),
    });
    return {
      sessionId,
      turn,
      kg,
      config,
      llm,
      dialogue: dialogueBefore(turns, turn.index),
      start: { conversationId, turnId: turn.id, index: turn.index, question: turn.question, newConversation, title, attempt: 1, change: null },
    };
  }

  /** POST /api/turns/[id]/retry: resets a failed or interrupted turn and re-runs it with its stored config. */
  async function prepareRetry(sessionId: string, turnId: string, body: unknown): Promise<PreparedTurn> {
    const req = parseWith(retryRequestSchema, body ?? {}, "request body");
    const previous = await queries.getTurn({ sessionId, turnId });
    const kg = await registry.access(sessionId, previous.config.kg.id);
    const { kg: _kg, llm: _llm, ...stored } = previous.config;
    // zod's partial() still fills defaults: keep only the parameters the request really sent, so the rest stay as stored
    const sent = (body as { config?: Record<string, unknown> } | undefined)?.config ?? {};
    const changed = Object.fromEntries(Object.entries(req.config ?? {}).filter(([key]) => key in sent));
    const config = pipelineConfigSchema.parse({ ...stored, ...changed });
    deps.getStrategy(config.strategy);
    const llm = tryLlm(req.llm);
    // the stored config says what this run used (a retry may change parameters or the model), as for a new turn
    const turn = await queries.retryTurn({
      sessionId,
      turnId,
      config: storedConfig(config, previous.config.kg, llm),
    });
    const conversation = await queries.getDialogue({ sessionId, conversationId: turn.conversationId });
    return {
      sessionId,
      turn,
      kg,
      config,
      llm,
      dialogue: dialogueBefore(conversation.turns, turn.index),
      start: startData(turn, conversation.title),
      // a failed or stopped re-run is retried as the same correction of the same attempt
      // ("ask again" ran the whole turn afresh: so does its retry)
      ...(previous.change && previous.change.correction.kind !== "again" ? { rerun: await rerunBase(sessionId, turnId, previous.change) } : {}),
    };
  }

  async function rerunBase(sessionId: string, turnId: string, change: AttemptChange): Promise<NonNullable<PreparedTurn["rerun"]>> {
    const base = await queries.getAttemptBase({ sessionId, turnId, attempt: change.baseAttempt });
    return { correction: change.correction, snapshot: base.snapshot, baseTrace: base.trace, standaloneQuestion: base.standaloneQuestion };
  }

  function startData(turn: TurnRecord, title: string): TurnStartData {
    return {
      conversationId: turn.conversationId,
      turnId: turn.id,
      index: turn.index,
      question: turn.question,
      newConversation: false,
      title,
      attempt: turn.attempt,
      change: turn.change,
    };
  }

  /**
   * POST /api/turns/[id]/rerun: checks a correction of one step of an attempt against that attempt's saved state, then
   * starts the next attempt of the turn (the earlier one is kept) and re-runs from the corrected step.
   */
  async function prepareRerun(sessionId: string, turnId: string, body: unknown): Promise<PreparedTurn> {
    const req = parseWith(rerunRequestSchema, body, "request body");
    const current = await queries.getTurn({ sessionId, turnId });
    if (current.status === "running" || current.status === "pending") {
      throw new AppError("bad_request", "This turn is still running: wait for it to finish (or stop it) before correcting it.");
    }
    const baseAttempt = req.attempt ?? current.attempt;
    const base = await queries.getAttemptBase({ sessionId, turnId, attempt: baseAttempt });
    const kg = await registry.access(sessionId, base.config.kg.id);
    const { kg: _kg, llm: _llm, ...stored } = base.config;
    const conversation = await queries.getDialogue({ sessionId, conversationId: current.conversationId });
    const dialogue = dialogueBefore(conversation.turns, current.index);
    if (req.correction.kind === "again") {
      // "ask again": the question runs afresh as the next attempt, with the parameters sent now (the rest as stored)
      const sent = (body as { config?: Record<string, unknown> } | undefined)?.config ?? {};
      const changed = Object.fromEntries(Object.entries(req.config ?? {}).filter(([key]) => key in sent));
      const again = pipelineConfigSchema.parse({ ...stored, ...changed });
      deps.getStrategy(again.strategy);
      const llm = tryLlm(req.llm);
      const turn = await queries.startAttempt({ sessionId, turnId, change: { baseAttempt, correction: req.correction }, config: storedConfig(again, base.config.kg, llm) });
      return { sessionId, turn, kg, config: again, llm, dialogue, start: startData(turn, conversation.title) };
    }
    const config = pipelineConfigSchema.parse(stored);
    const rerun = rerunFor(deps.getStrategy(config.strategy), req.correction.kind);
    // a bad correction is refused here, before anything is stored: the turn keeps its attempts as they are
    // an edited SPARQL query is checked by the shared guard (a strategy that writes other queries checks its own)
    if (rerun === finalQueryRerun) guardEditedQuery(req.correction, (await registry.getKg(sessionId, kg.id)).profile.prefixes, config.rowLimit);
    else if (req.correction.kind !== "final-query" && base.snapshot === null) {
      throw new AppError("bad_request", `Attempt ${baseAttempt} kept no state to re-run a step from (it ${base.status === "done" ? "was answered before re-runs existed" : `is ${base.status}`}); edit its final query instead.`);
    }
    await rerun.check({ question: current.question, dialogue, config, correction: req.correction, snapshot: base.snapshot });
    const llm = tryLlm(req.llm);
    const turn = await queries.startAttempt({
      sessionId,
      turnId,
      change: { baseAttempt, correction: req.correction },
      config: storedConfig(config, base.config.kg, llm),
    });
    return {
      sessionId,
      turn,
      kg,
      config,
      llm,
      dialogue,
      start: startData(turn, conversation.title),
      rerun: { correction: req.correction, snapshot: base.snapshot, baseTrace: base.trace, standaloneQuestion: base.standaloneQuestion },
    };
  }

  /**
   * Runs the strategy for a prepared turn, calling `onEvent` for each derivation event, and stores the outcome.
   * Never throws: every failure ends as a stored "failed" (or "interrupted") turn and a result saying why.
   */
  async function execute(p: PreparedTurn, onEvent: (e: DerivationEvent) => void, signal?: AbortSignal): Promise<TurnResultData> {
    const { sessionId } = p;
    const turnId = p.turn.id;
    const started = now();
    const trace: DerivationEvent[] = [];
    let pending: DerivationEvent[] = [];
    let writes: Promise<void> = Promise.resolve();
    // Batched so a reload mid-turn shows progress without one database write per event.
    const flush = () => {
      if (pending.length === 0) return;
      const batch = pending;
      pending = [];
      writes = writes
        .then(() => queries.appendTrace({ sessionId, turnId, events: batch }))
        .catch((e: unknown) => logWarn(`[chatty-kg] could not store trace events of turn ${turnId}: ${toAppError(e).message}`));
    };
    const timer = setInterval(flush, flushMs);
    const aborted = whenAborted(signal);

    const finishWith = async (status: "failed" | "interrupted", error: TurnErrorData): Promise<TurnResultData> => {
      clearInterval(timer);
      await writes;
      await queries.failTurn({ sessionId, turnId, error, trace, status });
      return { turnId, status, result: failedResult(error, now() - started) };
    };
    const stopped = () => finishWith("interrupted", { code: "aborted", message: STOPPED_MESSAGE });

    try {
      if (p.llm instanceof AppError) throw p.llm;
      const llm = p.llm.gateway;
      const [kg, similarity] = await Promise.all([registry.getKg(sessionId, p.kg.id), deps.similarity(signal)]);
      if (signal?.aborted) return await stopped();
      const strategy = deps.getStrategy(p.config.strategy);
      const { experience, kgNotes } = kgSources(queries, sessionId);
      const input = { question: p.turn.question, dialogue: p.dialogue, config: p.config, signal };
      const run = p.rerun
        ? rerunFor(strategy, p.rerun.correction.kind).run({ ...input, correction: p.rerun.correction, snapshot: p.rerun.snapshot, baseTrace: p.rerun.baseTrace }, { kg, llm, similarity, experience, kgNotes })
        : strategy.run(input, { kg, llm, similarity, experience, kgNotes });
      let result: TurnResult;
      for (;;) {
        const step = await Promise.race([run.next(), aborted]);
        if (step === ABORTED) {
          // the strategy got the signal too; do not wait for it to wind down before recording the stop
          void run.return(undefined as never).catch(() => {});
          return await stopped();
        }
        if (step.done) {
          // strategies report failures as data: a provider's or endpoint's message may quote a key
          result = redactValue(step.value);
          // a re-run answers the same question: one that does not derive it again (an edited final query) keeps how
          // the corrected attempt understood it (shown with the answer; a thumbs-up gives it to the experience pool)
          if (p.rerun?.standaloneQuestion && result.standaloneQuestion === undefined) result = { ...result, standaloneQuestion: p.rerun.standaloneQuestion };
          break;
        }
        const event = redactValue(step.value);
        trace.push(event);
        pending.push(event);
        onEvent(event);
      }
      if (signal?.aborted) return await stopped();
      clearInterval(timer);
      await writes;
      const stored = await queries.finishTurn({ sessionId, turnId, result, trace });
      // the state snapshot stays on the server (it is stored with the attempt; the browser has the trace)
      const { snapshot: _snapshot, ...shown } = result;
      return { turnId, status: stored.status, result: shown };
    } catch (e) {
      if (signal?.aborted) return await stopped().catch(() => ({ turnId, status: "interrupted" as const, result: failedResult({ code: "aborted", message: STOPPED_MESSAGE }) }));
      // redacted before it is stored, streamed or logged: a provider or endpoint error may quote a key
      const err = safeError(e, "pipeline_failed");
      if (err.code === "internal" || err.code === "pipeline_failed") logError(`[chatty-kg] turn ${turnId} failed:`, e);
      const error: TurnErrorData = { code: err.code, message: err.message };
      try {
        return await finishWith("failed", error);
      } catch (storeError) {
        // the turn stays "running" in the database; the next server start marks it interrupted
        logError(`[chatty-kg] could not store the failure of turn ${turnId}:`, storeError);
        return { turnId, status: "failed", result: failedResult(error, now() - started) };
      } finally {
        clearInterval(timer);
      }
    }
  }

  /** Writes a prepared turn's parts: start, data-turn, data-event…, [data-error], data-result, finish. */
  async function writeTurn(p: PreparedTurn, write: (part: ChatUIMessageChunk) => void, signal?: AbortSignal): Promise<void> {
    write({ type: "start", messageId: p.turn.id });
    write({ type: "data-turn", id: `turn-${p.turn.id}`, data: p.start });
    const outcome = await execute(p, (event) => write({ type: "data-event", data: event }), signal);
    const error = outcome.result.error;
    if (outcome.status !== "done" && error) {
      write({ type: "data-error", id: `error-${p.turn.id}`, data: { code: error.code, message: error.message, ...(error.stage ? { stage: error.stage } : {}) } });
    }
    write({ type: "data-result", id: `result-${p.turn.id}`, data: outcome });
    write({ type: "finish" });
  }

  /** The UI message stream of a prepared turn as parts (for in-process readers and tests). */
  function stream(p: PreparedTurn, signal?: AbortSignal): ReadableStream {
    return createUIMessageStream<ChatUIMessage>({
      execute: async ({ writer }) => {
        // a client that went away makes writes fail; the turn must still be recorded
        const write = (part: ChatUIMessageChunk) => {
          try {
            writer.write(part);
          } catch {
            // the reader is gone
          }
        };
        await writeTurn(p, write, signal);
      },
      onError: (e) => safeError(e).message,
    });
  }

  /** The HTTP response of POST /api/turns, retry and re-run: the same parts as SSE bytes (lib/server/sse.ts). */
  function response(p: PreparedTurn, signal?: AbortSignal, headers?: Record<string, string>): Response {
    return uiMessageSseResponse((write) => writeTurn(p, write as (part: ChatUIMessageChunk) => void, signal), { onError: (e) => safeError(e).message, headers });
  }

  return { prepareTurn, prepareRetry, prepareRerun, execute, stream, response };
}

export type TurnRunner = ReturnType<typeof createTurnRunner>;
type ChatUIMessageChunk = InferUIMessageChunk<ChatUIMessage>;
