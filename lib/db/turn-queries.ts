// A turn's life: created before the pipeline runs, its trace appended as it runs, finished or failed, retried after a
// failure, marked interrupted when the server stopped under it.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { DerivationEvent, TurnResult } from "@/lib/pipeline/types";
import {
  answerSchema,
  snapshotSchema,
  SNAPSHOT_MAX_CHARS,
  sparqlListSchema,
  statsSchema,
  traceSchema,
  turnConfigSchema,
  turnErrorSchema,
  type TurnConfigInput,
  type TurnError,
  type TurnStatus,
} from "./json";
import type { TurnOutcomeColumns } from "./raw-sql";
import type { TurnRecord } from "./records";
import {
  asJson,
  attemptsOf,
  CLEARED_OUTCOME,
  fromRawTurn,
  notFound,
  ownedTurn,
  parseInput,
  toTurnRecord,
  traceEventsOf,
  withoutControls,
  withoutNul,
  type QueryContext,
  type TurnRow,
} from "./rows";

// Another process may take the next turn index between our read and insert; a unique violation means "try again".
const CREATE_TURN_ATTEMPTS = 5;

/** The turn queries bound to one client. */
export function turnQueries({ db, sql, raw }: QueryContext) {
  /** Persists the question before the pipeline runs (status "running"), at the next position of the conversation. */
  async function createTurn(args: {
    sessionId: string;
    conversationId: string;
    question: string;
    config: TurnConfigInput;
  }): Promise<TurnRecord> {
    const question = parseInput(z.string().trim().min(1).max(10_000), withoutControls(args.question), "question");
    const config = parseInput(turnConfigSchema, args.config, "turn config");
    // The ownership check, the conversation's "last active" touch and the insert at the next position, without a
    // Prisma transaction on SQLite (each one makes libsql reopen its connection; lib/db/raw-sql.ts). Another process
    // racing for the same index gets a unique violation, retried here.
    const id = randomUUID();
    const createdAt = new Date();
    const configJson = JSON.stringify(config);
    for (let attempt = 1; ; attempt++) {
      try {
        const index = await raw.insertTurn(sql, { id, sessionId: args.sessionId, conversationId: args.conversationId, question, configJson, createdAt });
        if (index === undefined) throw notFound("conversation", args.conversationId);
        return {
          id,
          conversationId: args.conversationId,
          index,
          question,
          status: "running",
          answer: null,
          naturalAnswer: null,
          source: null,
          standaloneQuestion: null,
          error: null,
          trace: [],
          stats: null,
          config,
          sparql: [],
          feedback: null,
          createdAt,
          finishedAt: null,
          attempt: 1,
          change: null,
          attempts: [],
        };
      } catch (e) {
        if (raw.isUniqueViolation(e) && attempt < CREATE_TURN_ATTEMPTS) continue;
        throw e;
      }
    }
  }

  async function getTurn(args: { sessionId: string; turnId: string }): Promise<TurnRecord> {
    const row = await ownedTurn(db, args.sessionId, args.turnId);
    return toTurnRecord(row, (await traceEventsOf(db, [row.id])).get(row.id), await attemptsOf(db, row.id));
  }

  /**
   * Updates a turn the session owns and stores the events of `trace` not appended yet (appended events are a prefix
   * of the full trace); returns the updated row. not_found when the session does not own it.
   */
  async function updateOwnedTurn(sessionId: string, turnId: string, data: TurnOutcomeColumns, trace?: DerivationEvent[]): Promise<TurnRow> {
    // No transaction: each one makes libsql open a fresh connection (and run its pragmas) afterwards. Events first,
    // so a crash in between leaves a "running" turn (marked interrupted at the next start) with its full trace.
    if (trace && trace.length > 0) await raw.appendTraceEvents(sql, { sessionId, turnId, json: JSON.stringify(trace), fullTrace: true });
    // Raw: Prisma runs updateMany/updateManyAndReturn inside a transaction, so this is one plain statement instead.
    const rows = await raw.updateOwnedTurn(sql, { sessionId, turnId, set: data });
    if (rows.length === 0) throw notFound("turn", turnId);
    return fromRawTurn(rows[0]);
  }

  /** Stores the pipeline's result and full trace; a result with source "failed" marks the turn failed. */
  async function finishTurn(args: {
    sessionId: string;
    turnId: string;
    result: TurnResult;
    trace: DerivationEvent[];
  }): Promise<TurnRecord> {
    const { result } = args;
    const answer = parseInput(answerSchema, result.answer, "answer");
    const stats = parseInput(statsSchema, result.stats, "stats");
    const trace = parseInput(traceSchema, args.trace, "trace");
    const error = result.error === undefined ? undefined : parseInput(turnErrorSchema, result.error, "error");
    const sparql = parseInput(sparqlListSchema, result.sparql, "sparql");
    const snapshot = result.snapshot === undefined ? null : JSON.stringify(parseInput(snapshotSchema, result.snapshot, "state snapshot"));
    const row = await updateOwnedTurn(
      args.sessionId,
      args.turnId,
      {
        status: result.source === "failed" ? "failed" : "done",
        answer: JSON.stringify(answer),
        source: result.source,
        naturalAnswer: withoutNul(result.naturalAnswer),
        standaloneQuestion: withoutNul(result.standaloneQuestion),
        error: error === undefined ? null : JSON.stringify(error),
        stats: JSON.stringify(stats),
        sparql: JSON.stringify(sparql),
        // an oversized state is not kept: the turn can then only be re-run with an edited final query
        snapshot: snapshot !== null && snapshot.length <= SNAPSHOT_MAX_CHARS ? snapshot : null,
        finishedAt: new Date(),
      },
      trace,
    );
    // the trace just stored is the one given (a turn of this code has no legacy trace column): not read back
    return { ...toTurnRecord(row, [], await attemptsOf(db, row.id)), trace };
  }

  /** For a pipeline that threw (unexpected failure) or was cancelled: keeps the question, records why. */
  async function failTurn(args: {
    sessionId: string;
    turnId: string;
    error: TurnError;
    trace?: DerivationEvent[];
    status?: Extract<TurnStatus, "failed" | "interrupted">;
  }): Promise<TurnRecord> {
    const error = parseInput(turnErrorSchema, args.error, "error");
    const trace = args.trace === undefined ? undefined : parseInput(traceSchema, args.trace, "trace");
    const row = await updateOwnedTurn(
      args.sessionId,
      args.turnId,
      { status: args.status ?? "failed", source: "failed", error: JSON.stringify(error), finishedAt: new Date() },
      trace,
    );
    return toTurnRecord(row, (await traceEventsOf(db, [row.id])).get(row.id), await attemptsOf(db, row.id));
  }

  /** Adds events to a running turn's stored trace, so a reload mid-turn shows progress so far. */
  async function appendTrace(args: { sessionId: string; turnId: string; events: DerivationEvent[] }): Promise<void> {
    const events = parseInput(traceSchema, args.events, "trace events");
    if (events.length === 0) return;
    const inserted = await raw.appendTraceEvents(sql, { sessionId: args.sessionId, turnId: args.turnId, json: JSON.stringify(events), fullTrace: false });
    if (inserted === 0) throw notFound("turn", args.turnId);
  }

  /**
   * Resets a failed or interrupted turn to "running" (clearing its previous outcome) so the pipeline can re-run it.
   * `config`: what the retry runs with (parameters, KG, model), stored in place of the old one; absent keeps it.
   */
  async function retryTurn(args: { sessionId: string; turnId: string; config?: TurnConfigInput }): Promise<TurnRecord> {
    const config = args.config === undefined ? undefined : parseInput(turnConfigSchema, args.config, "turn config");
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    if (turn.status !== "failed" && turn.status !== "interrupted") {
      throw new AppError("bad_request", `Only failed or interrupted turns can be retried; this one is ${turn.status}.`);
    }
    // The status in the filter makes two simultaneous retries start the pipeline only once.
    const { count } = await db.turn.updateMany({
      where: { id: turn.id, status: turn.status },
      data: {
        status: "running",
        ...CLEARED_OUTCOME,
        ...(config ? { config: asJson(config) } : {}),
      },
    });
    if (count === 0) throw new AppError("bad_request", "This turn is already being retried.");
    // its earlier answer (and so any solved question it gave the pool) is gone
    await db.experience.deleteMany({ where: { turnId: turn.id } });
    // the previous run's events; the new run appends its first events only after this returns
    await db.traceEvent.deleteMany({ where: { turnId: turn.id } });
    return toTurnRecord(await db.turn.findUniqueOrThrow({ where: { id: turn.id } }), [], await attemptsOf(db, turn.id));
  }

  /**
   * On server start: turns left "running"/"pending" by a previous process can never finish; mark them interrupted.
   * Not session-scoped on purpose (it is housekeeping, not a user action). Returns how many turns changed.
   */
  async function markInterruptedTurns(): Promise<number> {
    const { count } = await db.turn.updateMany({
      where: { status: { in: ["running", "pending"] } },
      data: {
        status: "interrupted",
        source: "failed",
        error: asJson({ code: "aborted", message: "The server stopped before this turn finished." } satisfies TurnError),
        finishedAt: new Date(),
      },
    });
    return count;
  }

  return { createTurn, getTurn, finishTurn, failTurn, appendTrace, retryTurn, markInterruptedTurns };
}
