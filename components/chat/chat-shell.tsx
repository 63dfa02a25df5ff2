// The client shell: header on top; history · chat · derivation/SPARQL below (drawers on narrow screens).
// It owns the page state and wires the panels together; each panel only renders what it is given. The conversation
// shown follows the URL (use-conversation-route.ts).
"use client";
import { useEffect, useMemo, useRef, useState } from "react";
import { useRouter } from "next/navigation";
import type { ConversationDto, ConversationSummaryDto } from "@/lib/api/contract";
import type { LlmStatus } from "@/lib/llm/config";
import type { Correction } from "@/lib/pipeline/corrections";
import type { StrategyId } from "@/lib/pipeline/types";
import { TooltipProvider } from "@/components/ui/tooltip";
import { AdvancedSheet } from "@/components/config/advanced-sheet";
import { EndpointDialog } from "@/components/config/endpoint-dialog";
import { KgSwitchDialog } from "@/components/config/kg-switch-dialog";
import { describeUploaded, UploadDialog } from "@/components/config/upload-dialog";
import type { StrategyInfo } from "@/components/config/strategy-info";
import { useClientConfig } from "@/components/config/use-client-config";
import { useKgList } from "@/components/config/use-kg-list";
import { DerivationPanel } from "@/components/derivation/derivation-panel";
import { setupNotesOf } from "@/components/derivation/derivation-data";
import { EntityCard } from "@/components/entity/entity-card";
import type { HistoryActions } from "@/components/history/history-actions";
import { HistoryPanel } from "@/components/history/history-panel";
import { useHistoryList } from "@/components/history/use-history-list";
import { SparqlPanel } from "@/components/sparql/sparql-panel";
import type { QueryLanguage } from "@/components/sparql/sparql-editor";
import { cn } from "@/lib/utils";
import { ChatHeader } from "./chat-header";
import { ChatPanel } from "./chat-panel";
import { EmptyChat } from "./empty-chat";
import { useInsertText } from "@/components/insert-text";
import { KgOverviewDialog } from "@/components/kg-overview/kg-overview-dialog";
import { OverviewButton } from "@/components/onboarding/overview-button";
import { SidePanel } from "./side-panel";
import { SkipLink } from "./skip-link";
import { turnFromDto, isActive, shownAttempt, type ClientTurn } from "./turn-state";
import { useTurnStream } from "./use-turn-stream";
import { useConversationRoute } from "./use-conversation-route";
import { NARROW_QUERY, useDrawerFocus } from "./use-drawer-focus";
import { useShortcuts } from "./use-shortcuts";

export interface ChatShellProps {
  conversation: ConversationDto | null;
  initialConversations: ConversationSummaryDto[];
  llm: LlmStatus;
  defaultKgLabel: string;
  /** the registry's strategies (label, description) for the config strip */
  strategies?: readonly StrategyInfo[];
  /** the server's default strategy and why (shown in the Advanced sheet) */
  defaultStrategy?: { id: StrategyId; reason: string };
  actions: HistoryActions;
}

export function ChatShell({ conversation, initialConversations, llm, defaultKgLabel, strategies, defaultStrategy, actions }: ChatShellProps) {
  const { config, update: updateConfig, loaded: configLoaded, followDefault } = useClientConfig(defaultStrategy?.id);
  const router = useRouter();
  const history = useHistoryList(initialConversations, actions);
  const { kgs, error: kgError, reload: loadKgs, add: addKg, selectedKgId, selectedKg, names: kgNames } = useKgList(config.kgId);
  const kgDefault = selectedKg?.defaultStrategy ? { id: selectedKg.defaultStrategy.strategy, reason: selectedKg.defaultStrategy.reason } : defaultStrategy;
  useEffect(() => void (configLoaded && followDefault(kgDefault?.id)), [configLoaded, kgDefault?.id, followDefault]);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [tab, setTab] = useState<"derivation" | "sparql">("derivation");
  const [query, setQuery] = useState("");
  const [queryLanguage, setQueryLanguage] = useState<QueryLanguage>("sparql");
  const [entityIri, setEntityIri] = useState<string | null>(null);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [endpointOpen, setEndpointOpen] = useState(false);
  const [overviewOpen, setOverviewOpen] = useState(false);
  const [advancedOpen, setAdvancedOpen] = useState(false);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [kgSwitch, setKgSwitch] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [maximised, setMaximised] = useState(false);
  const [fill, setFill] = useState<{ text: string; n: number } | null>(null);
  const [drawer, setDrawer] = useState<"history" | "derivation" | null>(null);
  const historyDrawer = useRef<HTMLElement>(null);
  const derivationDrawer = useRef<HTMLElement>(null);
  const historyToggle = useRef<HTMLButtonElement>(null);
  const derivationToggle = useRef<HTMLButtonElement>(null);
  useDrawerFocus(drawer === "history", historyDrawer, historyToggle);
  useDrawerFocus(drawer === "derivation", derivationDrawer, derivationToggle);

  const initialTurns = useMemo(() => (conversation?.turns ?? []).map((t) => turnFromDto(t, conversation?.kgId)), [conversation]);
  const stream = useTurnStream(initialTurns, {
    onTurnStart: (data) => {
      if (data.newConversation) route.adopt(data.conversationId);
      void history.refresh(history.search);
    },
  });
  const { turns } = stream;
  // the turns shown follow the URL (New chat, a history link, back/forward)
  const route = useConversationRoute(conversation, actions.getConversation, (c) => {
    stream.reset((c?.turns ?? []).map((t) => turnFromDto(t, c?.kgId)));
    setSelectedKey(null);
    setMaximised(false);
    void history.refresh(history.search);
  });
  const conversationId = route.conversationId;

  const strategyLabels = useMemo(() => new Map((strategies ?? []).map((s) => [s.id, s.label])), [strategies]);

  // the derivation follows the newest turn unless the user picked one
  const selected = turns.find((t) => t.key === selectedKey) ?? turns[turns.length - 1] ?? null;
  const lastKey = turns[turns.length - 1]?.key;
  const prevLast = useRef(lastKey);
  useEffect(() => {
    if (lastKey !== prevLast.current) {
      prevLast.current = lastKey;
      setSelectedKey(lastKey ?? null);
    }
  }, [lastKey]);

  // the query editor shows the query behind the selected turn's answer once it is known (SPARQL, or a RAGONITE answer's SQL)
  const selectedResult = selected ? shownAttempt(selected).result : undefined;
  const selectedSparql = selected && !isActive(selected) ? (selectedResult?.sparql[0] ?? "") : null;
  const selectedSql = selected && !isActive(selected) && !selectedSparql ? (selectedResult?.sql?.[0] ?? "") : "";
  useEffect(() => {
    if (selectedSparql === null) return;
    setQuery(selectedSparql || selectedSql);
    setQueryLanguage(!selectedSparql && selectedSql ? "sql" : "sparql");
  }, [selected?.key, selectedSparql, selectedSql]);

  const llmOverride = config.llm && config.llm.model ? config.llm : undefined;
  const llmUsable = llm.configured || Boolean(config.llm?.model && (config.llm.provider !== "openai-compatible" || config.llm.baseURL));
  /** why nothing can be asked right now (null: it can) */
  const askBlocked = !llmUsable
    ? "Sending is off: no language model is set up. Choose one under Model in the settings, or ask the operator to set one up."
    : !selectedKgId
      ? "Sending waits for the list of knowledge graphs to load."
      : null;

  const send = (question: string) => {
    if (!selectedKgId || askBlocked) return;
    setTab("derivation");
    setNotice(null);
    void stream.send(
      { conversationId: conversationId ?? undefined, question, kgId: selectedKgId, config: config.pipeline, llm: llmOverride },
      { kgName: selectedKg?.name, model: llmOverride?.model ?? (llm.configured ? llm.model : undefined) },
    );
  };

  const openQuery = (q: string, language: QueryLanguage = "sparql") => {
    setQuery(q);
    setQueryLanguage(language);
    setTab("sparql");
  };
  // "open in the SPARQL editor" from the KG overview and elsewhere (on a narrow screen the editor is in the drawer)
  useInsertText("sparql", (q) => {
    openQuery(q);
    if (window.matchMedia(NARROW_QUERY).matches) setDrawer("derivation");
  });
  const openOverview = () => {
    setSettingsOpen(false);
    setOverviewOpen(true);
  };

  /** A correction of one step of attempt `attempt` of a turn: it re-runs from there as the turn's next attempt. */
  const rerun = (turn: ClientTurn, correction: Correction, attempt: number) => {
    setSelectedKey(turn.key);
    setTab("derivation");
    void stream.rerun(turn, { attempt, correction, llm: llmOverride });
  };

  const retry = (t: ClientTurn) => {
    // refused before the server saved it (no turn id): it is asked again as a new question
    if (!t.turnId) {
      stream.dispatch({ type: "drop", key: t.key });
      send(t.question);
    } else void stream.retry(t, { config: config.pipeline, llm: llmOverride });
  };

  const feedback = async (turnId: string | undefined, value: 1 | -1 | null, previous: 1 | -1 | null) => {
    if (!turnId) return;
    stream.dispatch({ type: "feedback", turnId, feedback: value });
    const res = await actions.setFeedback({ turnId, feedback: value });
    if (!res.ok) stream.dispatch({ type: "feedback", turnId, feedback: previous });
  };

  /** Picking a KG in a conversation with turns asks first (new conversation by default, or continue and mark it). */
  const pickKg = (kgId: string | undefined) => {
    const current = turns[turns.length - 1]?.kgId;
    if (kgId && turns.length > 0 && kgId !== current) setKgSwitch(kgId);
    else updateConfig({ kgId });
  };

  useShortcuts({ newChat: () => router.push("/") });

  // Esc closes an open drawer wherever focus is (dialogs above it handle their own Esc first)
  useEffect(() => {
    if (!drawer) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !document.querySelector("[role=dialog],[role=alertdialog]")) setDrawer(null);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [drawer]);

  const entityKg = selected?.kgId ?? selectedKgId;
  const setupNotes = useMemo(() => setupNotesOf(turns.flatMap((t) => [t.events, ...t.attempts.map((a) => a.events)])), [turns]);
  const strategyInfo = strategies?.find((s) => s.id === config.pipeline.strategy);
  const defaultStrategyInfo = kgDefault && { label: strategyLabels.get(kgDefault.id) ?? kgDefault.id, reason: kgDefault.reason };

  return (
    <TooltipProvider delayDuration={300}>
      <div className="flex h-dvh flex-col">
        <SkipLink />
        <ChatHeader
          strip={{
            config,
            kgs,
            kgError,
            selectedKgId,
            llm,
            strategies,
            onChange: updateConfig,
            onPickKg: pickKg,
            ready: configLoaded,
            onUpload: () => setUploadOpen(true),
            onAddEndpoint: () => setEndpointOpen(true),
            onOpenAdvanced: () => setAdvancedOpen(true),
            kgActions: <OverviewButton kgId={selectedKgId} kgName={selectedKg?.name} onOpen={openOverview} />,
          }}
          conversationId={conversationId}
          kgName={selectedKg?.name}
          strategyLabel={strategyInfo?.label ?? config.pipeline.strategy}
          drawer={drawer}
          onToggleDrawer={(which) => setDrawer(drawer === which ? null : which)}
          historyToggle={historyToggle}
          derivationToggle={derivationToggle}
          settingsOpen={settingsOpen}
          onSettingsOpenChange={setSettingsOpen}
        />

        <div className="relative flex min-h-0 flex-1">
          {drawer && <div className="fixed inset-0 z-30 bg-black/30 lg:hidden" data-testid="drawer-backdrop" aria-hidden onClick={() => setDrawer(null)} />}
          <aside
            ref={historyDrawer}
            tabIndex={-1}
            aria-label="Conversation history"
            data-testid="history-drawer"
            data-open={drawer === "history" || undefined}
            className={cn(
              "w-64 shrink-0 border-r bg-background outline-none",
              "max-lg:fixed max-lg:inset-y-0 max-lg:left-0 max-lg:z-40 max-lg:shadow-lg",
              drawer === "history" ? "max-lg:block" : "max-lg:hidden",
              maximised && "lg:hidden",
            )}
            onKeyDown={(e) => e.key === "Escape" && setDrawer(null)}
          >
            <HistoryPanel
              conversations={history.conversations}
              activeId={conversationId}
              kgNames={kgNames}
              search={history.search}
              error={history.error}
              onSearch={history.searchFor}
              onRename={(id, title) => void history.rename(id, title)}
              onDelete={(id) => void history.remove(id, conversationId, () => router.push("/"))}
              shareActions={actions}
            />
          </aside>

          <main className={cn("flex min-w-0 flex-1", maximised && "lg:hidden")}>
            <ChatPanel
              turns={turns}
              selectedKey={selected?.key ?? null}
              running={stream.running}
              inputDisabled={Boolean(askBlocked)}
              disabledReason={askBlocked}
              fill={fill}
              strategyLabels={strategyLabels}
              notice={notice}
              onDismissNotice={() => setNotice(null)}
              empty={
                <EmptyChat
                  llm={llm}
                  llmOverridden={llmUsable && !llm.configured}
                  kg={selectedKg}
                  defaultKgLabel={defaultKgLabel}
                  loadError={route.loadError}
                  onAsk={send}
                  askBlocked={askBlocked}
                  strategy={strategyInfo ?? { label: config.pipeline.strategy, description: "" }}
                  onOpenOverview={openOverview}
                />
              }
              onSend={send}
              onStop={stream.stop}
              onSelect={(key) => {
                setSelectedKey(key);
                setTab("derivation");
                setDrawer((d) => (d === null && window.matchMedia(NARROW_QUERY).matches ? "derivation" : d));
              }}
              onRetry={retry}
              onEdit={(t) => setFill({ text: t.question, n: Date.now() })}
              onAskAgain={(t) => {
                setSelectedKey(t.key);
                setTab("derivation");
                void stream.rerun(t, { correction: { kind: "again" }, config: config.pipeline, llm: llmOverride });
              }}
              onFeedback={(t, v) => void feedback(t.turnId, v, t.feedback)}
              onOpenEntity={setEntityIri}
              onOpenQuery={openQuery}
              onShowAttempt={(t, n) => {
                stream.dispatch({ type: "show-attempt", key: t.key, attempt: n });
                setSelectedKey(t.key);
              }}
            />
          </main>

          <SidePanel
            ref={derivationDrawer}
            open={drawer === "derivation"}
            onClose={() => setDrawer(null)}
            tab={tab}
            onTab={setTab}
            queryLabel={queryLanguage === "sql" ? "SQL" : "SPARQL"}
            maximised={maximised}
            onMaximised={setMaximised}
            derivation={
              <DerivationPanel
                turn={selected}
                corrections={strategies?.find((s) => s.id === selected?.strategy)?.corrections}
                busy={stream.running}
                kgId={selected?.kgId ?? selectedKgId}
                onRerun={rerun}
                onOpenQuery={openQuery}
                onOpenEntity={setEntityIri}
              />
            }
            query={
              <SparqlPanel
                kgId={selected?.kgId ?? selectedKgId}
                query={query}
                language={queryLanguage}
                onQueryChange={setQuery}
                onOpenEntity={setEntityIri}
                historyKey={conversationId ? `conversation:${conversationId}` : undefined}
                rerun={
                  // SPARQL: every strategy's final query can be edited; SQL (RAGONITE) where the strategy re-runs with it
                  selected?.turnId &&
                  !isActive(selected) &&
                  (queryLanguage === "sparql" || Boolean(strategies?.find((s) => s.id === selected.strategy)?.corrections?.includes("final-query")))
                    ? {
                        label: `Re-run turn ${selected.index + 1} with this query`,
                        disabled: stream.running || Boolean(selected.rerunning),
                        onRerun: (q) => rerun(selected, { kind: "final-query", query: q }, shownAttempt(selected).attempt),
                      }
                    : undefined
                }
              />
            }
          />
        </div>

        <EntityCard kgId={entityKg} iri={entityIri} onOpenChange={(o) => !o && setEntityIri(null)} />
        <KgOverviewDialog open={overviewOpen} onOpenChange={setOverviewOpen} kgId={selectedKgId} kgName={selectedKg?.name} />
        <UploadDialog
          open={uploadOpen}
          onOpenChange={setUploadOpen}
          onUploaded={(kg, files) => {
            addKg(kg);
            void loadKgs();
            pickKg(kg.id);
            setNotice(describeUploaded(kg, files));
          }}
        />
        <EndpointDialog
          open={endpointOpen}
          onOpenChange={setEndpointOpen}
          onAdded={(kg) => {
            addKg(kg);
            void loadKgs();
            pickKg(kg.id);
            setNotice(`Endpoint ‘${kg.name}’ added. It is the KG in use now.`);
          }}
        />
        <AdvancedSheet
          open={advancedOpen}
          onOpenChange={setAdvancedOpen}
          config={config.pipeline}
          strategy={strategyInfo}
          onChange={(patch) => updateConfig({ pipeline: { ...config.pipeline, ...patch } })}
          defaultStrategy={defaultStrategyInfo}
          setupNotes={setupNotes}
        />
        <KgSwitchDialog
          to={kgSwitch ? (kgNames.get(kgSwitch) ?? kgSwitch) : null}
          from={turns[turns.length - 1]?.kgName ?? (turns[turns.length - 1]?.kgId && kgNames.get(turns[turns.length - 1].kgId!))}
          onChoose={(choice) => {
            if (choice !== "cancel") updateConfig({ kgId: kgSwitch ?? undefined });
            setKgSwitch(null);
            if (choice === "new") router.push("/");
          }}
        />
      </div>
    </TooltipProvider>
  );
}
