// The centre panel: the turns (scroll-anchored, so streaming never shifts what you read), where the KG changed within
// the conversation, a notice (an upload's result), and the question box.
"use client";
import { useEffect, useRef } from "react";
import { InfoIcon, XIcon } from "lucide-react";
import type { StrategyId } from "@/lib/pipeline/types";
import { ChatInput } from "./chat-input";
import { TurnView } from "./turn-view";
import type { ClientTurn } from "./turn-state";

export interface ChatPanelProps {
  turns: ClientTurn[];
  selectedKey: string | null;
  running: boolean;
  inputDisabled?: boolean;
  /** why the question box cannot send (shown under it) */
  disabledReason?: string | null;
  /** text to put in the question box (Edit on a failed turn); `n` changes for each request */
  fill?: { text: string; n: number } | null;
  strategyLabels?: ReadonlyMap<StrategyId, string>;
  notice?: string | null;
  onDismissNotice?: () => void;
  empty: React.ReactNode;
  onSend: (q: string) => void;
  onStop: () => void;
  onSelect: (key: string) => void;
  onRetry: (turn: ClientTurn) => void;
  onEdit: (turn: ClientTurn) => void;
  onAskAgain: (turn: ClientTurn) => void;
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
        <div className="mx-auto flex max-w-3xl flex-col gap-6 px-3 py-4 sm:px-4 sm:py-6">
          {p.notice && (
            <p role="status" className="flex items-start gap-2 rounded-md border border-success/50 bg-success/10 px-3 py-2 text-sm" data-testid="chat-notice">
              <InfoIcon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden />
              <span className="flex-1">{p.notice}</span>
              <button type="button" aria-label="Dismiss" className="rounded p-0.5 text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring" onClick={p.onDismissNotice}>
                <XIcon className="size-3.5" />
              </button>
            </p>
          )}
          {count === 0 ? p.empty : null}
          {p.turns.map((t, i) => {
            const before = p.turns[i - 1];
            const switched = before && t.kgId && before.kgId && t.kgId !== before.kgId;
            return (
              <div key={t.key} className="flex flex-col gap-6">
                {switched && (
                  <p className="flex items-center gap-2 text-xs text-muted-foreground" data-testid="kg-switch-mark" role="separator" aria-label={`The knowledge graph changed to ${t.kgName ?? t.kgId}`}>
                    <span className="h-px flex-1 bg-border" aria-hidden />
                    From here on: {t.kgName ?? t.kgId} (was {before.kgName ?? before.kgId})
                    <span className="h-px flex-1 bg-border" aria-hidden />
                  </p>
                )}
                <TurnView
                  turn={t}
                  selected={t.key === p.selectedKey}
                  busy={p.running}
                  strategyLabel={t.strategy ? p.strategyLabels?.get(t.strategy as StrategyId) : undefined}
                  onSelect={() => p.onSelect(t.key)}
                  onRetry={() => p.onRetry(t)}
                  onEdit={() => p.onEdit(t)}
                  onAskAgain={() => p.onAskAgain(t)}
                  onFeedback={(v) => p.onFeedback(t, v)}
                  onOpenEntity={p.onOpenEntity}
                  onOpenQuery={p.onOpenQuery}
                  onShowAttempt={(n) => p.onShowAttempt?.(t, n)}
                />
              </div>
            );
          })}
          <div ref={endRef} className="h-px [overflow-anchor:auto]" aria-hidden />
        </div>
      </div>
      <ChatInput running={p.running} disabled={p.inputDisabled} disabledReason={p.disabledReason} fill={p.fill} onSend={p.onSend} onStop={p.onStop} />
    </section>
  );
}
