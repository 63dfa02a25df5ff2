// One turn in the chat: the question, then a live step indicator, the answer, its failure (with Retry), and feedback.
// A turn the user re-ran after correcting a step has attempts: the latest is shown, the others one click away.
"use client";
import { CircleAlertIcon, ListTreeIcon, RotateCcwIcon, ThumbsDownIcon, ThumbsUpIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { isModelKnowledge, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { cn } from "@/lib/utils";
import { AnswerView } from "./answer-view";
import { CitationsView } from "./citations-view";
import { SafeMarkdown } from "./safe-markdown";
import { STAGE_LABELS } from "./stage-labels";
import { StepIndicator } from "./step-indicator";
import { describeCorrection } from "@/lib/pipeline/corrections";
import { isActive, shownAttempt, type ClientTurn } from "./turn-state";

export interface TurnViewProps {
  turn: ClientTurn;
  selected: boolean;
  busy: boolean;
  onSelect: () => void;
  onRetry: () => void;
  onFeedback: (value: 1 | -1 | null) => void;
  onOpenEntity: (iri: string) => void;
  /** opens a query (one an answer cites, or one behind an item) in the query panel */
  onOpenQuery?: (query: string, language: "sparql" | "sql") => void;
  /** shows attempt n of the turn (undefined: the latest) */
  onShowAttempt?: (attempt: number | undefined) => void;
}

export function TurnView({ turn, selected, busy, onSelect, onRetry, onFeedback, onOpenEntity, onOpenQuery, onShowAttempt }: TurnViewProps) {
  const view = shownAttempt(turn);
  const active = view.latest && isActive(turn);
  const failed = view.status === "failed" || view.status === "interrupted";
  const answer = view.result?.answer;
  const attempts = [...turn.attempts.map((a) => a.attempt), turn.attempt];
  const provenance = turn.turnId && view.status === "done" ? { turnId: turn.turnId, attempt: view.attempt, onOpenQuery: onOpenQuery && ((q: string) => onOpenQuery(q, "sparql")) } : undefined;
  return (
    <article
      data-testid="turn"
      data-status={turn.status}
      data-attempt={view.attempt}
      data-attempts={attempts.length}
      aria-label={`Turn ${turn.index + 1}`}
      className="flex flex-col gap-2"
    >
      <div className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2 text-primary-foreground" data-testid="turn-question">
        {turn.question}
      </div>
      <div
        className={cn(
          "max-w-[92%] rounded-2xl rounded-bl-sm border bg-card px-4 py-3 transition-shadow",
          selected && "ring-2 ring-ring/50",
        )}
      >
        {attempts.length > 1 && (
          <div className="mb-2 flex flex-wrap items-center gap-1 border-b pb-2 text-xs" data-testid="attempts">
            <span role="group" aria-label="Attempts" className="flex gap-0.5">
              {attempts.map((n) => (
                <Button
                  key={n}
                  size="sm"
                  variant={n === view.attempt ? "secondary" : "ghost"}
                  className="h-6 px-2 text-xs"
                  aria-pressed={n === view.attempt}
                  aria-label={`Attempt ${n}${n === turn.attempt ? " (latest)" : ""}`}
                  onClick={() => onShowAttempt?.(n === turn.attempt ? undefined : n)}
                  data-testid="attempt-button"
                >
                  {n}
                </Button>
              ))}
            </span>
            <span className="min-w-0 truncate text-muted-foreground" data-testid="attempt-label">
              {view.change ? `Attempt ${view.attempt}: ${describeCorrection(view.change.correction)}` : `Attempt ${view.attempt}: as first answered`}
              {!view.latest && " · not the latest"}
            </span>
          </div>
        )}
        {/* min-h matches the step indicator, so a one-line answer replacing it does not shrink the bubble */}
        <div className="min-h-10" data-testid="turn-answer-area">
          {active && <StepIndicator events={turn.events} />}
          {!active && answer && !(failed && answer.kind === "none" && view.error) && (
            <>
              {/* an answer from the model's own knowledge (allowModelKnowledge) is never shown as a KG fact */}
              {isModelKnowledge(view.result?.source) && (
                <p data-testid="answer-not-from-kg" className="mb-1 w-fit rounded border border-warning/70 bg-warning/10 px-1.5 py-0.5 text-xs text-foreground">
                  {MODEL_KNOWLEDGE_NOTE}
                </p>
              )}
              <AnswerView answer={answer} provenance={provenance} onOpenEntity={onOpenEntity} />
            </>
          )}
          {!active && view.result?.naturalAnswer && (
            <SafeMarkdown text={view.result.naturalAnswer} className="mt-2 border-t pt-2 text-sm" />
          )}
          {!active && answer && "citations" in answer && answer.citations && (
            <CitationsView citations={answer.citations} onOpenEntity={onOpenEntity} onOpenQuery={onOpenQuery} />
          )}
          {!active && failed && (
            <div data-testid="turn-error" role="alert" className="flex items-start gap-2 text-sm">
              <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
              <div className="flex flex-col gap-1">
                <p>
                  <strong>{view.status === "interrupted" ? "Stopped" : "Failed"}</strong>
                  {view.error?.stage && <> at {STAGE_LABELS[view.error.stage]}</>}
                  {view.error?.message && <>: {view.error.message}</>}
                </p>
                {turn.turnId && view.latest && (
                  <Button size="sm" variant="outline" className="w-fit" onClick={onRetry} disabled={busy}>
                    <RotateCcwIcon /> Retry
                  </Button>
                )}
              </div>
            </div>
          )}
        </div>
        {/* shown while the turn runs too (its derivation streams live), so finishing adds no row */}
        <div className="mt-2 flex min-h-8 items-center gap-1 text-muted-foreground">
          <Button size="sm" variant="ghost" onClick={onSelect} aria-pressed={selected} data-testid="show-derivation">
            <ListTreeIcon /> How it was derived
          </Button>
          {view.result?.stats && (
            <span className="text-xs tabular-nums" data-testid="turn-stats">
              {(view.result.stats.ms / 1000).toFixed(1)} s · {view.result.stats.llmCalls} LLM calls · {view.result.stats.queries} queries
            </span>
          )}
          {turn.turnId && !active && !failed && view.latest && (
            <span className="ml-auto flex gap-0.5">
              <Button
                size="icon"
                variant="ghost"
                className="size-7"
                aria-label="Good answer"
                aria-pressed={turn.feedback === 1}
                onClick={() => onFeedback(turn.feedback === 1 ? null : 1)}
              >
                <ThumbsUpIcon className={cn(turn.feedback === 1 && "fill-current text-success")} />
              </Button>
              <Button
                size="icon"
                variant="ghost"
                className="size-7"
                aria-label="Bad answer"
                aria-pressed={turn.feedback === -1}
                onClick={() => onFeedback(turn.feedback === -1 ? null : -1)}
              >
                <ThumbsDownIcon className={cn(turn.feedback === -1 && "fill-current text-destructive")} />
              </Button>
            </span>
          )}
        </div>
      </div>
    </article>
  );
}
