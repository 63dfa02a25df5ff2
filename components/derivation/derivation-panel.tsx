// The derivation of the selected turn, live while it runs: the rephrased question, one card per stage (appended, so
// nothing above moves while it streams), then the timings. It shows the attempt the user picked (the latest unless
// they chose another); in a re-run the steps kept from the corrected attempt and the corrected one are marked, and,
// when the turn's strategy takes corrections, the cards offer them (another vertex, other predicates, one candidate
// query, an edited QIR triple): each re-runs the turn from that step as its next attempt.
"use client";
import { useMemo } from "react";
import type { ClientTurn } from "@/components/chat/turn-state";
import { isActive, shownAttempt } from "@/components/chat/turn-state";
import { isModelKnowledge, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { describeCorrection, type Correction, type CorrectionKind } from "@/lib/pipeline/corrections";
import { CorrectorProvider, type Corrector } from "./corrector";
import { correctionMarks, queryRuns } from "./derivation-data";
import { groupByStage, stageTimings } from "./group-events";
import { StageCard } from "./stage-card";
import { TimingBar } from "./timing-bar";
import { ErrorNote } from "@/components/chat/error-note";

export function DerivationPanel({
  turn,
  corrections = [],
  busy = false,
  kgId,
  onRerun,
  onOpenQuery,
  onOpenEntity,
}: {
  turn: ClientTurn | null;
  /** the corrections the turn's strategy takes (none: no controls) */
  corrections?: readonly CorrectionKind[];
  /** a turn is running: the controls wait */
  busy?: boolean;
  kgId?: string;
  onRerun?: (turn: ClientTurn, correction: Correction, attempt: number) => void;
  onOpenQuery: (q: string, language?: "sparql" | "sql") => void;
  onOpenEntity: (iri: string) => void;
}) {
  const view = turn ? shownAttempt(turn) : null;
  const events = useMemo(() => view?.events ?? [], [view?.events]);
  if (!turn || !view) {
    return <p className="p-4 text-sm text-muted-foreground">Ask a question: the steps that produce its answer appear here as they run.</p>;
  }
  const running = view.latest && isActive(turn);
  const groups = groupByStage(events);
  const runs = queryRuns(events);
  // an edited final query keeps no earlier step: its run starts afresh, only the corrected step is marked
  const marks = view.change?.correction.kind === "final-query" ? { ...correctionMarks(groups), kept: new Set<string>() } : correctionMarks(groups);
  const timings = stageTimings(events, running ? undefined : view.result?.stats.stageMs);
  const total = turn.attempts.length + 1;
  // an attempt that ran an edited final query kept no step state: only its query can be edited again (query panel)
  const kinds = view.change?.correction.kind === "final-query" || !onRerun ? [] : corrections.filter((k) => k !== "final-query");
  // shown (disabled) while the attempt runs too, so the controls appearing at its end move nothing
  const finished = view.status === "done" || view.status === "failed";
  const corrector: Corrector | null =
    kinds.length > 0 && view.status !== "interrupted"
      ? { kinds, disabled: busy || !finished || !turn.turnId || Boolean(turn.rerunning), kgId, attempt: view.attempt, rerun: (c) => onRerun?.(turn, c, view.attempt) }
      : null;
  const standalone = view.result?.standaloneQuestion;
  // a correction needs a step that produced something (a turn that failed before any did has nothing to correct)
  const stepsRan = groups.some((g) => g.end && !g.end.skipped && !g.end.summary.startsWith("Failed") && g.stage !== "chat");
  return (
    <div className="flex flex-col gap-3 p-3" data-testid="derivation" data-attempt={view.attempt} aria-busy={running}>
      <div>
        <p className="text-xs text-muted-foreground">
          Turn {turn.index + 1}
          {total > 1 && (
            <span data-testid="derivation-attempt">
              {" "}
              · attempt {view.attempt} of {total}
            </span>
          )}
        </p>
        <p className="font-medium">{turn.question}</p>
        {/* always one line (reserved while running), so the cards below do not move when the result arrives */}
        <p className="min-h-5 text-sm text-muted-foreground" data-testid="standalone-question">
          {standalone && standalone !== turn.question ? <>Understood as: &ldquo;{standalone}&rdquo;</> : running || !view.result ? "" : "Understood as asked."}
        </p>
        {view.change && (
          <p className="text-sm" data-testid="attempt-change">
            Re-run from attempt {view.change.baseAttempt}: {describeCorrection(view.change.correction)}
          </p>
        )}
        {corrector && (
          // two lines reserved: the text changes with the state, the cards below do not move
          <p className="min-h-8 text-xs text-muted-foreground" aria-live="polite" data-testid="rerun-status">
            {turn.rerunning
              ? "Re-running from your correction…"
              : stepsRan || running
                ? "A step went wrong? Correct it below: the turn re-runs from there as a new attempt."
                : "No step ran, so there is nothing to correct: retry the question once the cause is fixed."}
          </p>
        )}
        {turn.rerunError && view.latest && (
          <p role="alert" className="mt-1 rounded border border-destructive/50 p-2 text-sm text-destructive" data-testid="rerun-error">
            Correction not applied: {turn.rerunError}
          </p>
        )}
      </div>
      {groups.length === 0 && running && <p className="text-sm text-muted-foreground">Waiting for the first step…</p>}
      <CorrectorProvider value={corrector}>
        {groups.map((g) => (
          <StageCard
            // a new attempt remounts the cards, so ticked boxes and open editors do not carry over
            key={`${view.attempt}:${g.key}`}
            group={g}
            events={events}
            running={running}
            runs={runs}
            mark={view.change ? (marks.decided === g.key ? { kind: "decided", from: view.change.baseAttempt } : marks.kept.has(g.key) ? { kind: "kept", from: view.change.baseAttempt } : undefined) : undefined}
            onOpenQuery={onOpenQuery}
            onOpenEntity={onOpenEntity}
          />
        ))}
      </CorrectorProvider>
      {/* after the cards: its legend grows stage by stage, and above the cards that growth pushed them down while streaming */}
      {!running && isModelKnowledge(view.result?.source) && (
        <p data-testid="derivation-not-from-kg" className="rounded border border-warning/70 bg-warning/10 p-2 text-sm text-foreground">
          {MODEL_KNOWLEDGE_NOTE}: no query of the KG returned this answer.
        </p>
      )}
      <TimingBar timings={timings} />
      {!running && view.error && <ErrorNote error={view.error} />}
    </div>
  );
}
