// useTurnStream: posts a question (or a retry) and routes the streamed data parts (turn, event, error, result) to state.
"use client";
import { useCallback, useReducer, useRef, useState } from "react";
import { DefaultChatTransport, type UIMessageChunk } from "ai";
import type { ChatUIMessage, RerunRequest, RetryRequest, TurnErrorData, TurnRequest, TurnResultData, TurnStartData } from "@/lib/api/contract";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { turnsReducer, type ClientTurn, type TurnAction } from "./turn-state";

export interface TurnStreamCallbacks {
  /** the server saved the question: a new conversation may have been created */
  onTurnStart?: (data: TurnStartData) => void;
  onFinish?: (key: string) => void;
}

/** One handler for every data part of the stream: each becomes a reducer action for the turn `key`. */
export function chunkToAction(key: string, chunk: UIMessageChunk): TurnAction | null {
  switch (chunk.type) {
    case "data-turn":
      return { type: "turn", key, data: chunk.data as TurnStartData };
    case "data-event":
      return { type: "event", key, event: chunk.data as DerivationEvent };
    case "data-result":
      return { type: "result", key, data: chunk.data as TurnResultData };
    case "data-error":
      return { type: "error", key, error: chunk.data as TurnErrorData };
    case "error":
      return { type: "error", key, error: { code: "stream_error", message: chunk.errorText } };
    default:
      return null;
  }
}

/** Reads `{ error: { code, message } }` out of a failed response's text (DefaultChatTransport throws it as the message). */
export function errorFromThrown(e: unknown): TurnErrorData {
  const text = e instanceof Error ? e.message : String(e);
  try {
    const body = JSON.parse(text) as { error?: { code?: string; message?: string } };
    if (body.error?.message) return { code: body.error.code ?? "error", message: body.error.message };
  } catch {
    // not JSON: use the text as is
  }
  return { code: "network", message: text || "The request failed." };
}

let localSeq = 0;

export function useTurnStream(initial: ClientTurn[], callbacks: TurnStreamCallbacks = {}) {
  const [turns, dispatch] = useReducer(turnsReducer, initial);
  const [runningKey, setRunningKey] = useState<string | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const callbacksRef = useRef(callbacks);
  callbacksRef.current = callbacks;
  // bumped when the shown conversation changes: a stream of the one left keeps being read (so its turn finishes on the
  // server and is there when reopened) but no longer touches this state
  const generation = useRef(0);

  /** `rerun`: a refusal before the new attempt starts is the correction's error, not the turn's (nothing was stored). */
  const run = useCallback(async (key: string, api: string, body: object, rerun = false) => {
    const controller = new AbortController();
    abortRef.current = controller;
    setRunningKey(key);
    const gen = generation.current;
    const current = () => gen === generation.current;
    const dispatchHere = (a: TurnAction) => {
      if (current()) dispatch(a);
    };
    let finished = false;
    let started = false;
    let refusal: string | undefined;
    try {
      const transport = new DefaultChatTransport<ChatUIMessage>({ api, prepareSendMessagesRequest: () => ({ body }) });
      const stream = await transport.sendMessages({
        trigger: "submit-message",
        chatId: key,
        messageId: undefined,
        messages: [],
        abortSignal: controller.signal,
      });
      const reader = stream.getReader();
      while (true) {
        const { done, value } = await reader.read();
        if (done) break;
        const action = chunkToAction(key, value);
        if (!action) continue;
        dispatchHere(action);
        if (action.type === "turn") {
          started = true;
          if (current()) callbacksRef.current.onTurnStart?.(action.data);
        }
        if (action.type === "result") finished = true;
      }
    } catch (e) {
      if (!controller.signal.aborted) refusal = errorFromThrown(e).message;
      if (!(rerun && !started) && !controller.signal.aborted) dispatchHere({ type: "error", key, error: errorFromThrown(e) });
    } finally {
      // a correction refused before its attempt started: the turn is as it was, the refusal is shown by the controls
      if (rerun && !started) dispatchHere({ type: "rerun-error", key, message: refusal ?? (controller.signal.aborted ? "Stopped." : "The correction was not accepted.") });
      // a stream that ended without a result (stopped, dropped, or refused) leaves the turn interrupted or failed
      else if (!finished) dispatchHere({ type: "ended", key, aborted: controller.signal.aborted });
      if (current()) {
        abortRef.current = null;
        setRunningKey(null);
        callbacksRef.current.onFinish?.(key);
      }
    }
  }, []);

  /** `origin`: the KG's name and the model as shown on the turn while it runs (the stored turn says the same) */
  const send = useCallback(
    (request: TurnRequest, origin: { kgName?: string; model?: string } = {}) => {
      const key = `local-${Date.now()}-${localSeq++}`;
      dispatch({ type: "submit", key, question: request.question, kgId: request.kgId, strategy: request.config?.strategy ?? "chatty-kg", ...origin });
      return run(key, "/api/turns", request);
    },
    [run],
  );

  const retry = useCallback(
    (turn: ClientTurn, request: RetryRequest) => {
      if (!turn.turnId) return Promise.resolve();
      dispatch({ type: "retry", turnId: turn.turnId });
      return run(turn.key, `/api/turns/${encodeURIComponent(turn.turnId)}/retry`, request);
    },
    [run],
  );

  /** A correction of one step of an attempt: the turn re-runs from there as its next attempt. */
  const rerun = useCallback(
    (turn: ClientTurn, request: RerunRequest) => {
      if (!turn.turnId) return Promise.resolve();
      dispatch({ type: "rerun-start", key: turn.key });
      return run(turn.key, `/api/turns/${encodeURIComponent(turn.turnId)}/rerun`, request, true);
    },
    [run],
  );

  const stop = useCallback(() => abortRef.current?.abort(), []);

  /** Shows other turns (another conversation, or none): a running stream is detached, not stopped. */
  const reset = useCallback((next: ClientTurn[]) => {
    generation.current += 1;
    abortRef.current = null;
    setRunningKey(null);
    dispatch({ type: "reset", turns: next });
  }, []);

  return { turns, dispatch, send, retry, rerun, stop, reset, running: runningKey !== null, runningKey };
}
