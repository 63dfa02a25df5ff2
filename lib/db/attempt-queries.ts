// The attempts of a turn: a user's correction archives the current outcome and starts the next attempt; a re-run
// reads the attempt it starts from (its state snapshot, trace and config).
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { Prisma } from "@/generated/prisma/client";
import { attemptChangeSchema, snapshotSchema, traceSchema, turnConfigSchema, TURN_STATUSES, type AttemptChange, type TurnConfigInput } from "./json";
import type { AttemptBase, AttemptRecord, TurnRecord } from "./records";
import { asJson, CLEARED_OUTCOME, ownedTurn, parseColumn, parseInput, parseTrace, traceEventsOf, type QueryContext } from "./rows";

/** The attempt queries bound to one client; `getTurn` reads a turn with all its attempts (turn-queries.ts). */
export function attemptQueries({ db, raw }: QueryContext, getTurn: (args: { sessionId: string; turnId: string }) => Promise<TurnRecord>) {
  /** Every attempt of a turn the session owns, oldest first (the last is the turn's current one). */
  async function listAttempts(args: { sessionId: string; turnId: string }): Promise<AttemptRecord[]> {
    const { attempts, ...latest } = await getTurn(args);
    const current: AttemptRecord = { ...latest };
    for (const k of ["id", "conversationId", "index", "question"] as const) delete (current as Partial<TurnRecord>)[k];
    return [...attempts, current];
  }

  /** What a re-run starts from: attempt `attempt` (1-based) of a turn the session owns, with its state snapshot. */
  async function getAttemptBase(args: { sessionId: string; turnId: string; attempt: number }): Promise<AttemptBase> {
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    const snapshotOf = (value: unknown) => (value === null || value === undefined ? null : parseColumn(snapshotSchema, value, "snapshot", turn.id));
    if (args.attempt === turn.attempt) {
      return {
        attempt: turn.attempt,
        status: parseColumn(z.enum(TURN_STATUSES), turn.status, "status", turn.id),
        snapshot: snapshotOf(turn.snapshot),
        trace: parseTrace(turn, (await traceEventsOf(db, [turn.id])).get(turn.id) ?? []),
        config: parseColumn(turnConfigSchema, turn.config, "config", turn.id),
        standaloneQuestion: turn.standaloneQuestion,
      };
    }
    const row = await db.turnAttempt.findUnique({ where: { turnId_attempt: { turnId: turn.id, attempt: args.attempt } } });
    if (!row) throw new AppError("not_found", `Turn ${turn.id} has no attempt ${args.attempt}.`);
    return {
      attempt: row.attempt,
      status: parseColumn(z.enum(TURN_STATUSES), row.status, "status", turn.id),
      snapshot: snapshotOf(row.snapshot),
      trace: parseColumn(traceSchema, row.trace, "attempt trace", turn.id),
      config: parseColumn(turnConfigSchema, row.config, "config", turn.id),
      standaloneQuestion: row.standaloneQuestion,
    };
  }

  /**
   * Starts a new attempt of a finished turn (a re-run after the user's correction): the current outcome, with its full
   * trace and snapshot, is kept as a TurnAttempt row; the turn becomes "running" as attempt n+1 with `change`.
   * `config`: what the re-run runs with (the model may differ), stored in place of the old one.
   */
  async function startAttempt(args: { sessionId: string; turnId: string; change: AttemptChange; config?: TurnConfigInput }): Promise<TurnRecord> {
    const change = parseInput(attemptChangeSchema, args.change, "correction");
    const config = args.config === undefined ? undefined : parseInput(turnConfigSchema, args.config, "turn config");
    const turn = await ownedTurn(db, args.sessionId, args.turnId);
    if (turn.status === "running" || turn.status === "pending") throw new AppError("bad_request", "This turn is still running: wait for it to finish (or stop it) before correcting it.");
    if (change.baseAttempt > turn.attempt) throw new AppError("bad_request", `This turn has ${turn.attempt} attempt(s); there is no attempt ${change.baseAttempt}.`);
    const trace = parseTrace(turn, (await traceEventsOf(db, [turn.id])).get(turn.id) ?? []);
    const json = (v: unknown) => (v === null ? Prisma.DbNull : asJson(v));
    // One transaction: the archive and the reset happen together or not at all; the status and attempt in the filter
    // (and the unique attempt number) make two simultaneous re-runs start only one.
    await db.$transaction(async (tx) => {
      await tx.turnAttempt.create({
        data: {
          turnId: turn.id,
          attempt: turn.attempt,
          status: turn.status,
          answer: json(turn.answer),
          naturalAnswer: turn.naturalAnswer,
          source: turn.source,
          standaloneQuestion: turn.standaloneQuestion,
          error: json(turn.error),
          trace: asJson(trace),
          stats: json(turn.stats),
          config: asJson(turn.config),
          sparql: json(turn.sparql),
          feedback: turn.feedback,
          change: json(turn.change),
          snapshot: json(turn.snapshot),
          finishedAt: turn.finishedAt,
        },
      });
      const { count } = await tx.turn.updateMany({
        where: { id: turn.id, status: turn.status, attempt: turn.attempt },
        data: {
          status: "running",
          attempt: turn.attempt + 1,
          change: asJson(change),
          ...CLEARED_OUTCOME,
          ...(config ? { config: asJson(config) } : {}),
        },
      });
      if (count === 0) throw new AppError("bad_request", "This turn is already being re-run.");
      await tx.traceEvent.deleteMany({ where: { turnId: turn.id } });
      // the helpful answer the pool took from this turn is now an earlier attempt's: it leaves the pool
      await tx.experience.deleteMany({ where: { turnId: turn.id } });
    }).catch((e: unknown) => {
      if (raw.isUniqueViolation(e)) throw new AppError("bad_request", "This turn is already being re-run.");
      throw e;
    });
    return getTurn(args);
  }

  return { listAttempts, getAttemptBase, startAttempt };
}
