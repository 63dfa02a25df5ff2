// Client-side state of a conversation's turns: built from stored turns or from streamed data parts (a pure reducer).
import type { AttemptDto, TurnDto, TurnErrorData, TurnResultData, TurnStartData, TurnStatus } from "@/lib/api/contract";
import type { AttemptChange } from "@/lib/pipeline/corrections";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";

/** One attempt of a turn as the client shows it: the first run, or a re-run after the user's correction. */
export interface ClientAttempt {
  attempt: number;
  /** the correction that started it; null for the first */
  change: AttemptChange | null;
  status: TurnStatus;
  events: DerivationEvent[];
  result?: TurnResult;
  error?: TurnErrorData;
}

/** A turn: its latest attempt's fields, with the earlier attempts beside them. */
export interface ClientTurn {
  /** stable React key: the server's turn id once known, a local id before */
  key: string;
  turnId?: string;
  index: number;
  question: string;
  /** the KG the turn ran against (the SPARQL panel and entity cards query the same one) */
  kgId?: string;
  /** its name as the KG menu showed it when the turn ran */
  kgName?: string;
  /** the model that answered (absent: none was set up) */
  model?: string;
  status: TurnStatus;
  events: DerivationEvent[];
  result?: TurnResult;
  error?: TurnErrorData;
  feedback: 1 | -1 | null;
  /** the latest attempt's number and the correction that started it */
  attempt: number;
  change: AttemptChange | null;
  /** earlier attempts, oldest first */
  attempts: ClientAttempt[];
  /** the attempt the user is looking at (undefined: the latest) */
  shown?: number;
  /** the strategy the turn ran with (which corrections it takes) */
  strategy?: string;
  /** a correction was sent and no new attempt has started yet */
  rerunning?: boolean;
  /** why the last correction was refused (nothing was stored) */
  rerunError?: string;
}

export type TurnAction =
  | { type: "reset"; turns: ClientTurn[] }
  | { type: "submit"; key: string; question: string; kgId: string; strategy?: string; kgName?: string; model?: string }
  | { type: "retry"; turnId: string }
  | { type: "turn"; key: string; data: TurnStartData }
  | { type: "event"; key: string; event: DerivationEvent }
  | { type: "result"; key: string; data: TurnResultData }
  | { type: "error"; key: string; error: TurnErrorData }
  /** the stream ended without a result: stopped by the user, or cut off */
  | { type: "ended"; key: string; aborted: boolean }
  | { type: "feedback"; turnId: string; feedback: 1 | -1 | null }
  /** a turn the server never saved (refused before it started) leaves the list: it is asked again as a new one */
  | { type: "drop"; key: string }
  /** a correction was sent (the next attempt starts with its data-turn), or refused before it started */
  | { type: "rerun-start"; key: string }
  | { type: "rerun-error"; key: string; message: string }
  | { type: "show-attempt"; key: string; attempt: number | undefined };

function resultOf(t: Pick<AttemptDto, "answer" | "stats" | "source" | "standaloneQuestion" | "naturalAnswer" | "sparql" | "error">): TurnResult | undefined {
  if (!t.answer || !t.stats) return undefined;
  return {
    answer: t.answer,
    source: t.source ?? "kg",
    standaloneQuestion: t.standaloneQuestion ?? undefined,
    naturalAnswer: t.naturalAnswer ?? undefined,
    sparql: t.sparql,
    // a RAGONITE answer's SQL is kept in its citations
    sql: [...new Set(("citations" in t.answer ? (t.answer.citations ?? []) : []).flatMap((c) => (c.query ? [c.query] : [])))],
    error: t.error ?? undefined,
    stats: t.stats,
  };
}

function attemptFromDto(a: AttemptDto): ClientAttempt {
  return { attempt: a.attempt, change: a.change, status: a.status, events: a.trace, result: resultOf(a), error: a.error ?? undefined };
}

/** What a stored turn ran with: `{ ...PipelineConfig, kg: { id, name }, llm: { provider, model } }` (turn-runner). */
function originOf(config: Record<string, unknown>): { kgId?: string; kgName?: string; model?: string } {
  const kg = config.kg as { id?: unknown; name?: unknown } | undefined;
  const llm = config.llm as { model?: unknown } | undefined;
  return {
    kgId: typeof kg?.id === "string" ? kg.id : undefined,
    kgName: typeof kg?.name === "string" ? kg.name : undefined,
    model: typeof llm?.model === "string" ? llm.model : undefined,
  };
}

/** Rebuilds the TurnResult of a stored turn (null while it never finished). */
export function turnFromDto(t: TurnDto, conversationKgId?: string): ClientTurn {
  const origin = originOf(t.config);
  return {
    key: t.id,
    turnId: t.id,
    index: t.index,
    question: t.question,
    kgId: origin.kgId ?? conversationKgId,
    kgName: origin.kgName,
    model: origin.model,
    status: t.status,
    events: t.trace,
    result: resultOf(t),
    error: t.error ?? undefined,
    feedback: t.feedback,
    attempt: t.attempt ?? 1,
    change: t.change ?? null,
    attempts: (t.attempts ?? []).map(attemptFromDto),
    strategy: typeof t.config.strategy === "string" ? t.config.strategy : undefined,
  };
}

/** The latest attempt of a turn, in the shape of an earlier one. */
function latestOf(t: ClientTurn): ClientAttempt {
  return { attempt: t.attempt, change: t.change, status: t.status, events: t.events, result: t.result, error: t.error };
}

/** The attempt the user is looking at (the latest unless they picked another), and whether it is the latest. */
export function shownAttempt(t: ClientTurn): ClientAttempt & { latest: boolean } {
  const earlier = t.shown === undefined ? undefined : t.attempts.find((a) => a.attempt === t.shown);
  return earlier ? { ...earlier, latest: false } : { ...latestOf(t), latest: true };
}

function update(turns: ClientTurn[], key: string, fn: (t: ClientTurn) => ClientTurn): ClientTurn[] {
  return turns.map((t) => (t.key === key ? fn(t) : t));
}

export function turnsReducer(turns: ClientTurn[], action: TurnAction): ClientTurn[] {
  switch (action.type) {
    case "reset":
      return action.turns;
    case "submit":
      return [
        ...turns,
        {
          key: action.key,
          index: turns.length,
          question: action.question,
          kgId: action.kgId,
          kgName: action.kgName,
          model: action.model,
          status: "pending",
          events: [],
          feedback: null,
          attempt: 1,
          change: null,
          attempts: [],
          strategy: action.strategy,
        },
      ];
    case "retry":
      // the retried turn is re-run in place: its old trace and result are replaced by the new stream
      return turns.map((t) =>
        t.turnId === action.turnId ? { ...t, status: "pending", events: [], result: undefined, error: undefined, shown: undefined } : t,
      );
    case "turn":
      return update(turns, action.key, (t) => {
        const base = { ...t, turnId: action.data.turnId, index: action.data.index, status: "running" as const };
        // a re-run after a correction: the attempt shown so far is kept beside the new one
        if ((action.data.attempt ?? 1) <= t.attempt) return base;
        return {
          ...base,
          attempts: [...t.attempts, latestOf(t)],
          attempt: action.data.attempt ?? t.attempt + 1,
          change: action.data.change ?? null,
          events: [],
          result: undefined,
          error: undefined,
          feedback: null,
          shown: undefined,
          rerunning: false,
        };
      });
    case "event":
      return update(turns, action.key, (t) => ({ ...t, events: [...t.events, action.event] }));
    case "result":
      return update(turns, action.key, (t) => ({
        ...t,
        status: action.data.status,
        result: action.data.result,
        error: action.data.result.error ?? t.error,
      }));
    case "error":
      return update(turns, action.key, (t) => ({ ...t, error: action.error }));
    case "ended":
      return update(turns, action.key, (t) =>
        isActive(t)
          ? {
              ...t,
              status: action.aborted ? "interrupted" : "failed",
              error: t.error ?? (action.aborted ? { code: "aborted", message: "Stopped." } : { code: "stream_error", message: "The answer stream ended early." }),
            }
          : t,
      );
    case "feedback":
      return turns.map((t) => (t.turnId === action.turnId ? { ...t, feedback: action.feedback } : t));
    case "drop":
      return turns.filter((t) => t.key !== action.key || t.turnId !== undefined);
    case "rerun-start":
      return update(turns, action.key, (t) => ({ ...t, rerunning: true, rerunError: undefined }));
    case "rerun-error":
      return update(turns, action.key, (t) => ({ ...t, rerunning: false, rerunError: action.message }));
    case "show-attempt":
      return update(turns, action.key, (t) => ({ ...t, shown: action.attempt === t.attempt ? undefined : action.attempt }));
  }
}

export function isActive(t: ClientTurn): boolean {
  return t.status === "pending" || t.status === "running";
}
