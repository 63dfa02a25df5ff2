// The read-only view of a shared conversation: each turn's question, answer (and sentence answer), where it came from,
// the SPARQL behind it and, on request, its derivation. No history, settings, corrections or feedback: it only shows.
"use client";
import { useMemo, useState } from "react";
import { ListTreeIcon } from "lucide-react";
import type { ConversationDto } from "@/lib/api/contract";
import type { StrategyId } from "@/lib/pipeline/types";
import { isModelKnowledge, MODEL_KNOWLEDGE_NOTE } from "@/lib/pipeline/answer-format";
import { Button } from "@/components/ui/button";
import { TooltipProvider } from "@/components/ui/tooltip";
import { AnswerView } from "@/components/chat/answer-view";
import { ErrorNote } from "@/components/chat/error-note";
import { SafeMarkdown } from "@/components/chat/safe-markdown";
import { turnFromDto, type ClientTurn } from "@/components/chat/turn-state";
import { DerivationPanel } from "@/components/derivation/derivation-panel";

export function SharedConversation({ conversation, strategies }: { conversation: ConversationDto; strategies: { id: StrategyId; label: string }[] }) {
  const turns = useMemo(() => conversation.turns.map((t) => turnFromDto(t, conversation.kgId)), [conversation]);
  const labels = new Map(strategies.map((s) => [s.id, s.label]));
  return (
    <TooltipProvider delayDuration={300}>
      <main className="mx-auto flex min-h-dvh max-w-3xl flex-col gap-6 px-4 py-6" data-testid="shared-conversation">
        <header className="flex flex-col gap-1 border-b pb-4">
          <p className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Chatty-KG · shared conversation, read-only</p>
          <h1 className="text-2xl font-semibold tracking-tight" data-testid="shared-title">
            {conversation.title}
          </h1>
          <p className="text-sm text-muted-foreground">
            {turns.length} turn{turns.length === 1 ? "" : "s"} · started {new Date(conversation.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}
          </p>
        </header>
        {turns.map((t) => (
          <SharedTurn key={t.key} turn={t} strategyLabel={t.strategy ? labels.get(t.strategy as StrategyId) : undefined} />
        ))}
      </main>
    </TooltipProvider>
  );
}

function SharedTurn({ turn, strategyLabel }: { turn: ClientTurn; strategyLabel?: string }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const failed = turn.status === "failed" || turn.status === "interrupted";
  const answer = turn.result?.answer;
  const noop = () => {};
  return (
    <article className="flex flex-col gap-2" data-testid="turn" data-status={turn.status} aria-label={`Turn ${turn.index + 1}`}>
      <div className="ml-auto max-w-[85%] rounded-2xl rounded-br-sm bg-primary px-4 py-2 text-primary-foreground" data-testid="turn-question">
        {turn.question}
      </div>
      <div className="max-w-[92%] rounded-2xl rounded-bl-sm border bg-card px-4 py-3">
        {answer && !(failed && answer.kind === "none" && turn.error) && (
          <>
            {isModelKnowledge(turn.result?.source) && <p className="mb-1 w-fit rounded border border-warning/70 bg-warning/10 px-1.5 py-0.5 text-xs">{MODEL_KNOWLEDGE_NOTE}</p>}
            <AnswerView answer={answer} onOpenEntity={noop} />
          </>
        )}
        {turn.result?.naturalAnswer && <SafeMarkdown text={turn.result.naturalAnswer} className="mt-2 border-t pt-2 text-sm" />}
        {failed && <ErrorNote error={turn.error ?? { code: "error" }} stopped={turn.status === "interrupted"} className="mt-1" />}
        <p className="mt-1 truncate text-xs text-muted-foreground" data-testid="turn-origin">
          {[turn.kgName ?? turn.kgId, strategyLabel ?? turn.strategy, turn.model].filter(Boolean).join(" · ")}
        </p>
        {(turn.result?.sparql ?? []).map((q, i) => (
          <details key={i} className="mt-2 rounded border bg-background text-xs" data-testid="shared-sparql" open={i === 0}>
            <summary className="cursor-pointer px-2 py-1 text-muted-foreground">SPARQL behind the answer</summary>
            <pre className="max-h-64 overflow-auto border-t p-2 whitespace-pre-wrap">{q}</pre>
          </details>
        ))}
        <Button size="sm" variant="ghost" className="mt-1 px-2" aria-expanded={open} onClick={() => setOpen((o) => !o)} data-testid="show-derivation">
          <ListTreeIcon /> {open ? "Hide how it was derived" : "How it was derived"}
        </Button>
        {open && (
          <div className="mt-1 rounded-md border" data-testid="shared-derivation">
            {query && (
              <pre className="max-h-48 overflow-auto border-b bg-muted p-2 text-xs whitespace-pre-wrap" data-testid="shared-query">
                {query}
              </pre>
            )}
            <DerivationPanel turn={turn} onOpenQuery={(q) => setQuery(q)} onOpenEntity={noop} />
          </div>
        )}
      </div>
    </article>
  );
}
