// One turn in the chat: the question, then a live step indicator, the answer, its failure (with Retry), and feedback.
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
import { isActive, type ClientTurn } from "./turn-state";

export interface TurnViewProps {
  turn: ClientTurn;
  selected: boolean;
  busy: boolean;
  onSelect: () => void;
  onRetry: () => void;
  onFeedback: (value: 1 | -1 | null) => void;
  onOpenEntity: (iri: string) => void;
  /** opens a query an answer cites in the query panel */
  onOpenQuery?: (query: string, language: "sql") => void;
}

export function TurnView({ turn, selected, busy, onSelect, onRetry, onFeedback, onOpenEntity, onOpenQuery }: TurnViewProps) {
  const active = isActive(turn);
  const failed = turn.status === "failed" || turn.status === "interrupted";
  const answer = turn.result?.answer;
  return (
    <article data-testid="turn" data-status={turn.status} aria-label={`Turn ${turn.index + 1}`} className="flex flex-col gap-2">
      <div className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2 text-primary-foreground" data-testid="turn-question">
        {turn.question}
      </div>
      <div
        className={cn(
          "max-w-[92%] rounded-2xl rounded-bl-sm border bg-card px-4 py-3 transition-shadow",
          selected && "ring-2 ring-ring/50",
        )}
      >
        {/* min-h matches the step indicator, so a one-line answer replacing it does not shrink the bubble */}
        <div className="min-h-10" data-testid="turn-answer-area">
          {active && <StepIndicator events={turn.events} />}
          {!active && answer && !(failed && answer.kind === "none" && turn.error) && (
            <>
              {/* an answer from the model's own knowledge (allowModelKnowledge) is never shown as a KG fact */}
              {isModelKnowledge(turn.result?.source) && (
                <p data-testid="answer-not-from-kg" className="mb-1 w-fit rounded border border-warning/70 bg-warning/10 px-1.5 py-0.5 text-xs text-foreground">
                  {MODEL_KNOWLEDGE_NOTE}
                </p>
              )}
              <AnswerView answer={answer} onOpenEntity={onOpenEntity} />
            </>
          )}
          {!active && turn.result?.naturalAnswer && (
            <SafeMarkdown text={turn.result.naturalAnswer} className="mt-2 border-t pt-2 text-sm" />
          )}
          {!active && answer && "citations" in answer && answer.citations && (
            <CitationsView citations={answer.citations} onOpenEntity={onOpenEntity} onOpenQuery={onOpenQuery} />
          )}
          {!active && failed && (
            <div data-testid="turn-error" role="alert" className="flex items-start gap-2 text-sm">
              <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
              <div className="flex flex-col gap-1">
                <p>
                  <strong>{turn.status === "interrupted" ? "Stopped" : "Failed"}</strong>
                  {turn.error?.stage && <> at {STAGE_LABELS[turn.error.stage]}</>}
                  {turn.error?.message && <>: {turn.error.message}</>}
                </p>
                {turn.turnId && (
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
          {turn.result?.stats && (
            <span className="text-xs tabular-nums">
              {(turn.result.stats.ms / 1000).toFixed(1)} s · {turn.result.stats.llmCalls} LLM calls · {turn.result.stats.queries} queries
            </span>
          )}
          {turn.turnId && !active && !failed && (
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
