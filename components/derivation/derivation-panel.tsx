// The derivation of the selected turn, live while it runs: the rephrased question, one card per stage (appended, so
// nothing above moves while it streams), then the timings.
"use client";
import type { ClientTurn } from "@/components/chat/turn-state";
import { isActive } from "@/components/chat/turn-state";
import { isModelKnowledge, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { queryRuns } from "./derivation-data";
import { groupByStage, stageTimings } from "./group-events";
import { StageCard } from "./stage-card";
import { TimingBar } from "./timing-bar";

export function DerivationPanel({
  turn,
  onOpenQuery,
  onOpenEntity,
}: {
  turn: ClientTurn | null;
  onOpenQuery: (q: string, language?: "sparql" | "sql") => void;
  onOpenEntity: (iri: string) => void;
}) {
  if (!turn) {
    return <p className="p-4 text-sm text-muted-foreground">Ask a question: the steps that produce its answer appear here as they run.</p>;
  }
  const running = isActive(turn);
  const groups = groupByStage(turn.events);
  const runs = queryRuns(turn.events);
  const timings = stageTimings(turn.events, running ? undefined : turn.result?.stats.stageMs);
  return (
    <div className="flex flex-col gap-3 p-3" data-testid="derivation" aria-busy={running}>
      <div>
        <p className="text-xs text-muted-foreground">Turn {turn.index + 1}</p>
        <p className="font-medium">{turn.question}</p>
        {/* always one line (reserved while running), so the cards below do not move when the result arrives */}
        <p className="min-h-5 text-sm text-muted-foreground" data-testid="standalone-question">
          {turn.result?.standaloneQuestion && turn.result.standaloneQuestion !== turn.question ? (
            <>Understood as: &ldquo;{turn.result.standaloneQuestion}&rdquo;</>
          ) : running ? (
            ""
          ) : (
            "Understood as asked."
          )}
        </p>
      </div>
      {groups.length === 0 && running && <p className="text-sm text-muted-foreground">Waiting for the first step…</p>}
      {groups.map((g) => (
        <StageCard key={g.key} group={g} running={running} runs={runs} onOpenQuery={onOpenQuery} onOpenEntity={onOpenEntity} />
      ))}
      {/* after the cards: its legend grows stage by stage, and above the cards that growth pushed them down while streaming */}
      {!running && isModelKnowledge(turn.result?.source) && (
        <p data-testid="derivation-not-from-kg" className="rounded border border-warning/70 bg-warning/10 p-2 text-sm text-foreground">
          {MODEL_KNOWLEDGE_NOTE}: no query of the KG returned this answer.
        </p>
      )}
      <TimingBar timings={timings} />
      {!running && turn.error && (
        <p role="alert" className="rounded border border-destructive/50 p-2 text-sm text-destructive">
          {turn.error.stage ? `${turn.error.stage}: ` : ""}
          {turn.error.message}
        </p>
      )}
    </div>
  );
}
