// Client-side state of a conversation's turns: built from stored turns or from streamed data parts (a pure reducer).
import type { TurnDto, TurnErrorData, TurnResultData, TurnStartData, TurnStatus } from "@/lib/api/contract";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";

export interface ClientTurn {
  /** stable React key: the server's turn id once known, a local id before */
  key: string;
  turnId?: string;
  index: number;
  question: string;
  /** the KG the turn ran against (the SPARQL panel and entity cards query the same one) */
  kgId?: string;
  status: TurnStatus;
  events: DerivationEvent[];
  result?: TurnResult;
  error?: TurnErrorData;
  feedback: 1 | -1 | null;
}

export type TurnAction =
  | { type: "reset"; turns: ClientTurn[] }
  | { type: "submit"; key: string; question: string; kgId: string }
  | { type: "retry"; turnId: string }
  | { type: "turn"; key: string; data: TurnStartData }
  | { type: "event"; key: string; event: DerivationEvent }
  | { type: "result"; key: string; data: TurnResultData }
  | { type: "error"; key: string; error: TurnErrorData }
  /** the stream ended without a result: stopped by the user, or cut off */
  | { type: "ended"; key: string; aborted: boolean }
  | { type: "feedback"; turnId: string; feedback: 1 | -1 | null };

/** Rebuilds the TurnResult of a stored turn (null while it never finished). */
export function turnFromDto(t: TurnDto, conversationKgId?: string): ClientTurn {
  const result: TurnResult | undefined =
    t.answer && t.stats
      ? {
          answer: t.answer,
          source: t.source ?? "kg",
          standaloneQuestion: t.standaloneQuestion ?? undefined,
          naturalAnswer: t.naturalAnswer ?? undefined,
          sparql: t.sparql,
          // a RAGONITE answer's SQL is kept in its citations
          sql: [...new Set(("citations" in t.answer ? (t.answer.citations ?? []) : []).flatMap((c) => (c.query ? [c.query] : [])))],
          error: t.error ?? undefined,
          stats: t.stats,
        }
      : undefined;
  return {
    key: t.id,
    turnId: t.id,
    index: t.index,
    question: t.question,
    kgId: typeof t.config.kgId === "string" ? t.config.kgId : conversationKgId,
    status: t.status,
    events: t.trace,
    result,
    error: t.error ?? undefined,
    feedback: t.feedback,
  };
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
        { key: action.key, index: turns.length, question: action.question, kgId: action.kgId, status: "pending", events: [], feedback: null },
      ];
    case "retry":
      // the retried turn is re-run in place: its old trace and result are replaced by the new stream
      return turns.map((t) =>
        t.turnId === action.turnId ? { ...t, status: "pending", events: [], result: undefined, error: undefined } : t,
      );
    case "turn":
      return update(turns, action.key, (t) => ({ ...t, turnId: action.data.turnId, index: action.data.index, status: "running" }));
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
  }
}

export function isActive(t: ClientTurn): boolean {
  return t.status === "pending" || t.status === "running";
}
