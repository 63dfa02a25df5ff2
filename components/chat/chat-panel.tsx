// The centre panel: the turns (scroll-anchored, so streaming never shifts what you read) and the question box.
"use client";
import { useEffect, useRef } from "react";
import { ChatInput } from "./chat-input";
import { TurnView } from "./turn-view";
import type { ClientTurn } from "./turn-state";

export interface ChatPanelProps {
  turns: ClientTurn[];
  selectedKey: string | null;
  running: boolean;
  inputDisabled?: boolean;
  empty: React.ReactNode;
  onSend: (q: string) => void;
  onStop: () => void;
  onSelect: (key: string) => void;
  onRetry: (turn: ClientTurn) => void;
  onFeedback: (turn: ClientTurn, value: 1 | -1 | null) => void;
  onOpenEntity: (iri: string) => void;
  /** opens a query (one an answer cites, or one behind an item) in the query panel */
  onOpenQuery?: (query: string, language: "sparql" | "sql") => void;
  onShowAttempt?: (turn: ClientTurn, attempt: number | undefined) => void;
}

export function ChatPanel(p: ChatPanelProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const endRef = useRef<HTMLDivElement>(null);
  const count = p.turns.length;

  // a new turn scrolls into view; later growth keeps the reader's position (overflow-anchor on the end marker)
  useEffect(() => {
    if (count > 0) endRef.current?.scrollIntoView({ block: "end" });
  }, [count]);

  return (
    <section aria-label="Chat" className="flex min-h-0 min-w-0 flex-1 flex-col">
      <div ref={scrollRef} className="min-h-0 flex-1 overflow-y-auto [overflow-anchor:auto]" data-testid="chat-scroll">
        <div className="mx-auto flex max-w-3xl flex-col gap-6 px-4 py-6">
          {count === 0 ? p.empty : null}
          {p.turns.map((t) => (
            <TurnView
              key={t.key}
              turn={t}
              selected={t.key === p.selectedKey}
              busy={p.running}
              onSelect={() => p.onSelect(t.key)}
              onRetry={() => p.onRetry(t)}
              onFeedback={(v) => p.onFeedback(t, v)}
              onOpenEntity={p.onOpenEntity}
              onOpenQuery={p.onOpenQuery}
              onShowAttempt={(n) => p.onShowAttempt?.(t, n)}
            />
          ))}
          <div ref={endRef} className="h-px [overflow-anchor:auto]" aria-hidden />
        </div>
      </div>
      <ChatInput running={p.running} disabled={p.inputDisabled} onSend={p.onSend} onStop={p.onStop} />
    </section>
  );
}
