// One turn in the chat: the question, then a live step indicator, the answer (one Copy for all of it, Ask again), its
// failure in words (with Retry and Edit, the question kept), where it came from (KG · strategy · model) and feedback.
// A turn the user re-ran after correcting a step has attempts: the latest is shown, the others one click away.
"use client";
import { ListTreeIcon, PencilIcon, RefreshCwIcon, RotateCcwIcon, ThumbsDownIcon, ThumbsUpIcon } from "lucide-react";
import { Button } from "@/components/ui/button";
import { isModelKnowledge, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { cn } from "@/lib/utils";
import { AnswerView } from "./answer-view";
import { CitationsView } from "./citations-view";
import { SafeMarkdown } from "./safe-markdown";
import { answerText } from "./answer-text";
import { CopyButton } from "./copy-button";
import { ErrorNote } from "./error-note";
import { StepIndicator } from "./step-indicator";
import { describeCorrection } from "@/lib/pipeline/corrections";
import { isActive, shownAttempt, type ClientTurn } from "./turn-state";

export interface TurnViewProps {
  turn: ClientTurn;
  selected: boolean;
  busy: boolean;
  onSelect: () => void;
  onRetry: () => void;
  /** puts the question back in the question box */
  onEdit: () => void;
  /** runs the question again with the current settings, as the turn's next attempt */
  onAskAgain: () => void;
  /** the strategy's name as the settings show it */
  strategyLabel?: string;
  onFeedback: (value: 1 | -1 | null) => void;
  onOpenEntity: (iri: string) => void;
  /** opens a query (one an answer cites, or one behind an item) in the query panel */
  onOpenQuery?: (query: string, language: "sparql" | "sql") => void;
  /** shows attempt n of the turn (undefined: the latest) */
  onShowAttempt?: (attempt: number | undefined) => void;
}

export function TurnView({ turn, selected, busy, onSelect, onRetry, onEdit, onAskAgain, strategyLabel, onFeedback, onOpenEntity, onOpenQuery, onShowAttempt }: TurnViewProps) {
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
            <ErrorNote error={view.error ?? { code: view.status === "interrupted" ? "aborted" : "error" }} stopped={view.status === "interrupted"} className="mt-1" testId="turn-error">
              {view.latest && (
                <span className="flex gap-1">
                  <Button size="sm" variant="outline" className="h-7" onClick={onRetry} disabled={busy} data-testid="retry-turn">
                    <RotateCcwIcon /> Retry
                  </Button>
                  <Button size="sm" variant="ghost" className="h-7" onClick={onEdit} data-testid="edit-turn">
                    <PencilIcon /> Edit
                  </Button>
                </span>
              )}
            </ErrorNote>
          )}
        </div>
        <p className="mt-1 truncate text-xs text-muted-foreground" data-testid="turn-origin" title="The knowledge graph, strategy and model that answered">
          {[turn.kgName ?? turn.kgId ?? "KG unknown", strategyLabel ?? turn.strategy, turn.model ?? "no model"].filter(Boolean).join(" · ")}
        </p>
        {/* shown while the turn runs too (its derivation streams live), so finishing adds no row */}
        <div className="mt-1 flex min-h-8 items-center gap-1 text-muted-foreground">
          <Button size="sm" variant="ghost" onClick={onSelect} aria-pressed={selected} data-testid="show-derivation" aria-label="How it was derived" className="px-2">
            <ListTreeIcon /> <span className="max-sm:hidden">How it was derived</span>
          </Button>
          {view.result?.stats && (
            <span className="min-w-0 truncate text-xs whitespace-nowrap tabular-nums max-sm:hidden" data-testid="turn-stats" title="Time, LLM calls and KG queries of this answer">
              {(view.result.stats.ms / 1000).toFixed(1)} s · {view.result.stats.llmCalls} LLM calls · {view.result.stats.queries} queries
            </span>
          )}
          {turn.turnId && !active && !failed && view.latest && (
            <span className="ml-auto flex items-center gap-0.5">
              {view.result && (
                <CopyButton text={() => answerText(view.result!)} label="Copy the whole answer" className="h-7 px-1.5">
                  <span className="max-sm:hidden">Copy</span>
                </CopyButton>
              )}
              <Button size="sm" variant="ghost" className="h-7 px-1.5 text-xs" onClick={onAskAgain} disabled={busy} data-testid="ask-again" aria-label="Ask again with the current settings (a new attempt)" title="Ask again with the current settings (a new attempt)">
                <RefreshCwIcon /> <span className="max-sm:hidden">Ask again</span>
              </Button>
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
