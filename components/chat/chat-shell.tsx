// The client shell: config strip on top; history · chat · derivation/SPARQL below (drawers on narrow screens).
// It owns the page state and wires the panels together; each panel only renders what it is given.
"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { BarChart3Icon, HistoryIcon, ListTreeIcon, XIcon } from "lucide-react";
import type { ConversationDto, ConversationSummaryDto, KgListItem } from "@/lib/api/contract";
import type { LlmStatus } from "@/lib/llm/config";
import { Button } from "@/components/ui/button";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { TooltipProvider } from "@/components/ui/tooltip";
import { api } from "@/components/api-client";
import { ConfigStrip } from "@/components/config/config-strip";
import { EndpointDialog } from "@/components/config/endpoint-dialog";
import { ExportMenu } from "@/components/config/export-menu";
import { ThemeToggle } from "@/components/config/theme-toggle";
import { UploadDialog } from "@/components/config/upload-dialog";
import type { StrategyInfo } from "@/components/config/strategy-info";
import { useClientConfig } from "@/components/config/use-client-config";
import { DerivationPanel } from "@/components/derivation/derivation-panel";
import { EntityCard } from "@/components/entity/entity-card";
import type { HistoryActions } from "@/components/history/history-actions";
import { HistoryPanel } from "@/components/history/history-panel";
import { SparqlPanel } from "@/components/sparql/sparql-panel";
import type { QueryLanguage } from "@/components/sparql/sparql-editor";
import { cn } from "@/lib/utils";
import { ChatPanel } from "./chat-panel";
import { EmptyChat } from "./empty-chat";
import { turnFromDto, isActive, shownAttempt, type ClientTurn } from "./turn-state";
import type { Correction } from "@/lib/pipeline/corrections";
import { useTurnStream } from "./use-turn-stream";
import { useConversationRoute } from "./use-conversation-route";
import { NARROW_QUERY, useDrawerFocus } from "./use-drawer-focus";

export interface ChatShellProps {
  conversation: ConversationDto | null;
  initialConversations: ConversationSummaryDto[];
  llm: LlmStatus;
  defaultKgLabel: string;
  /** the registry's strategies (label, description) for the config strip */
  strategies?: readonly StrategyInfo[];
  actions: HistoryActions;
}

export function ChatShell({ conversation, initialConversations, llm, defaultKgLabel, strategies, actions }: ChatShellProps) {
  const { config, update: updateConfig, loaded: configLoaded } = useClientConfig();
  const router = useRouter();
  const [conversations, setConversations] = useState(initialConversations);
  const [search, setSearch] = useState("");
  const [historyError, setHistoryError] = useState<string | null>(null);
  const [kgs, setKgs] = useState<KgListItem[]>([]);
  const [defaultKgId, setDefaultKgId] = useState<string | undefined>(undefined);
  const [kgError, setKgError] = useState<string | null>(null);
  const [selectedKey, setSelectedKey] = useState<string | null>(null);
  const [tab, setTab] = useState<"derivation" | "sparql">("derivation");
  const [query, setQuery] = useState("");
  const [queryLanguage, setQueryLanguage] = useState<QueryLanguage>("sparql");
  const [entityIri, setEntityIri] = useState<string | null>(null);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [endpointOpen, setEndpointOpen] = useState(false);
  const [drawer, setDrawer] = useState<"history" | "derivation" | null>(null);
  const historyDrawer = useRef<HTMLElement>(null);
  const derivationDrawer = useRef<HTMLElement>(null);
  const historyToggle = useRef<HTMLButtonElement>(null);
  const derivationToggle = useRef<HTMLButtonElement>(null);
  useDrawerFocus(drawer === "history", historyDrawer, historyToggle);
  useDrawerFocus(drawer === "derivation", derivationDrawer, derivationToggle);

  const refreshHistory = useCallback(
    async (q: string) => {
      const res = await actions.listConversations({ search: q || undefined });
      if (res.ok) {
        setConversations(res.data);
        setHistoryError(null);
      } else setHistoryError(res.error.message);
    },
    [actions],
  );

  const initialTurns = useMemo(() => (conversation?.turns ?? []).map((t) => turnFromDto(t, conversation?.kgId)), [conversation]);
  const stream = useTurnStream(initialTurns, {
    onTurnStart: (data) => {
      if (data.newConversation) route.adopt(data.conversationId);
      void refreshHistory(search);
    },
  });
  const { turns } = stream;
  // the turns shown follow the URL (New chat, a history link, back/forward)
  const route = useConversationRoute(conversation, actions.getConversation, (c) => {
    stream.reset((c?.turns ?? []).map((t) => turnFromDto(t, c?.kgId)));
    setSelectedKey(null);
    void refreshHistory(search);
  });
  const conversationId = route.conversationId;

  // the KG list: sample, this session's uploads and endpoints
  const loadKgs = useCallback(async () => {
    try {
      const res = await api.kgs();
      setKgs(res.kgs);
      setDefaultKgId(res.defaultKgId);
      setKgError(null);
    } catch (e) {
      setKgError(e instanceof Error ? e.message : String(e));
    }
  }, []);
  useEffect(() => {
    void loadKgs();
  }, [loadKgs]);

  const selectedKgId = config.kgId && kgs.some((k) => k.id === config.kgId) ? config.kgId : (defaultKgId ?? config.kgId);

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

  const send = (question: string) => {
    if (!selectedKgId) return;
    setTab("derivation");
    void stream.send({
      conversationId: conversationId ?? undefined,
      question,
      kgId: selectedKgId,
      config: config.pipeline,
      llm: config.llm && config.llm.model ? config.llm : undefined,
    });
  };

  const openQuery = (q: string, language: QueryLanguage = "sparql") => {
    setQuery(q);
    setQueryLanguage(language);
    setTab("sparql");
  };

  const rename = async (id: string, title: string) => {
    setConversations((cs) => cs.map((c) => (c.id === id ? { ...c, title } : c)));
    const res = await actions.renameConversation({ conversationId: id, title });
    if (!res.ok) setHistoryError(res.error.message);
    await refreshHistory(search);
  };

  const remove = async (id: string) => {
    const res = await actions.deleteConversation({ conversationId: id });
    if (!res.ok) {
      setHistoryError(res.error.message);
      return;
    }
    if (id === conversationId) {
      router.push("/");
      return;
    }
    await refreshHistory(search);
  };

  /** A correction of one step of attempt `attempt` of a turn: it re-runs from there as the turn's next attempt. */
  const rerun = (turn: ClientTurn, correction: Correction, attempt: number) => {
    setSelectedKey(turn.key);
    setTab("derivation");
    void stream.rerun(turn, { attempt, correction, llm: config.llm && config.llm.model ? config.llm : undefined });
  };

  const feedback = async (turnId: string | undefined, value: 1 | -1 | null, previous: 1 | -1 | null) => {
    if (!turnId) return;
    stream.dispatch({ type: "feedback", turnId, feedback: value });
    const res = await actions.setFeedback({ turnId, feedback: value });
    if (!res.ok) stream.dispatch({ type: "feedback", turnId, feedback: previous });
  };

  // Esc closes an open drawer wherever focus is (dialogs above it handle their own Esc first)
  useEffect(() => {
    if (!drawer) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && !e.defaultPrevented && !document.querySelector("[role=dialog],[role=alertdialog]")) setDrawer(null);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [drawer]);

  const llmUsable = llm.configured || Boolean(config.llm?.model && (config.llm.provider !== "openai-compatible" || config.llm.baseURL));
  const entityKg = selected?.kgId ?? selectedKgId;

  return (
    <TooltipProvider delayDuration={300}>
      <div className="flex h-dvh flex-col">
        <a
          href="#question"
          data-testid="skip-to-question"
          className="sr-only focus-visible:not-sr-only focus-visible:fixed focus-visible:top-2 focus-visible:left-2 focus-visible:z-50 focus-visible:rounded-md focus-visible:bg-card focus-visible:px-3 focus-visible:py-2 focus-visible:text-sm focus-visible:shadow focus-visible:ring-2 focus-visible:ring-ring"
          onClick={(e) => {
            e.preventDefault();
            document.getElementById("question")?.focus();
          }}
        >
          Skip to the question box
        </a>
        <header className="flex shrink-0 flex-wrap items-center gap-x-4 gap-y-2 border-b px-3 py-2">
          <div className="flex items-center gap-2">
            <Button ref={historyToggle} size="icon" variant="ghost" className="size-8 lg:hidden" aria-label="Conversations" aria-expanded={drawer === "history"} data-testid="open-history" onClick={() => setDrawer(drawer === "history" ? null : "history")}>
              <HistoryIcon />
            </Button>
            <h1 className="text-lg font-semibold tracking-tight">Chatty-KG</h1>
          </div>
          <div className="min-w-0 flex-1">
            <ConfigStrip
              config={config}
              kgs={kgs}
              kgError={kgError}
              selectedKgId={selectedKgId}
              llm={llm}
              strategies={strategies}
              onChange={updateConfig}
              ready={configLoaded}
              onUpload={() => setUploadOpen(true)}
              onAddEndpoint={() => setEndpointOpen(true)}
            />
          </div>
          <div className="flex items-center gap-1">
            <Button asChild size="sm" variant="ghost" data-testid="nav-eval">
              <Link href="/eval">
                <BarChart3Icon /> Evaluation
              </Link>
            </Button>
            <ExportMenu conversationId={conversationId} />
            <ThemeToggle />
            <Button ref={derivationToggle} size="icon" variant="ghost" className="size-8 lg:hidden" aria-label="Derivation" aria-expanded={drawer === "derivation"} data-testid="open-derivation" onClick={() => setDrawer(drawer === "derivation" ? null : "derivation")}>
              <ListTreeIcon />
            </Button>
          </div>
        </header>

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
            )}
            onKeyDown={(e) => e.key === "Escape" && setDrawer(null)}
          >
            <HistoryPanel
              conversations={conversations}
              activeId={conversationId}
              search={search}
              error={historyError}
              onSearch={(q) => {
                setSearch(q);
                void refreshHistory(q);
              }}
              onRename={(id, title) => void rename(id, title)}
              onDelete={(id) => void remove(id)}
            />
          </aside>

          <main className="flex min-w-0 flex-1">
            <ChatPanel
              turns={turns}
              selectedKey={selected?.key ?? null}
              running={stream.running}
              inputDisabled={!selectedKgId}
              empty={<EmptyChat llm={llm} llmOverridden={llmUsable && !llm.configured} defaultKgLabel={defaultKgLabel} onAsk={send} canAsk={Boolean(selectedKgId)} />}
              onSend={send}
              onStop={stream.stop}
              onSelect={(key) => {
                setSelectedKey(key);
                setTab("derivation");
                setDrawer((d) => (d === null && window.matchMedia(NARROW_QUERY).matches ? "derivation" : d));
              }}
              onRetry={(t) => void stream.retry(t, { config: config.pipeline, llm: config.llm && config.llm.model ? config.llm : undefined })}
              onFeedback={(t, v) => void feedback(t.turnId, v, t.feedback)}
              onOpenEntity={setEntityIri}
              onOpenQuery={openQuery}
              onShowAttempt={(t, n) => {
                stream.dispatch({ type: "show-attempt", key: t.key, attempt: n });
                setSelectedKey(t.key);
              }}
            />
          </main>

          <aside
            ref={derivationDrawer}
            tabIndex={-1}
            aria-label="Answer derivation"
            data-testid="derivation-drawer"
            data-open={drawer === "derivation" || undefined}
            className={cn(
              "flex w-[420px] shrink-0 flex-col border-l bg-background outline-none",
              "max-lg:fixed max-lg:inset-y-0 max-lg:right-0 max-lg:z-40 max-lg:w-[min(420px,92vw)] max-lg:shadow-lg",
              drawer === "derivation" ? "max-lg:flex" : "max-lg:hidden",
            )}
            onKeyDown={(e) => e.key === "Escape" && setDrawer(null)}
          >
            <Tabs value={tab} onValueChange={(v) => setTab(v as "derivation" | "sparql")} className="flex min-h-0 flex-1 flex-col">
              <div className="flex items-center">
                <TabsList className="flex-1">
                  <TabsTrigger value="derivation">Derivation</TabsTrigger>
                  <TabsTrigger value="sparql">{queryLanguage === "sql" ? "SQL" : "SPARQL"}</TabsTrigger>
                </TabsList>
                <Button size="icon" variant="ghost" className="size-8 lg:hidden" aria-label="Close panel" onClick={() => setDrawer(null)}>
                  <XIcon />
                </Button>
              </div>
              <TabsContent value="derivation" className="overflow-y-auto">
                <DerivationPanel
                  turn={selected}
                  corrections={strategies?.find((s) => s.id === selected?.strategy)?.corrections}
                  busy={stream.running}
                  kgId={selected?.kgId ?? selectedKgId}
                  onRerun={rerun}
                  onOpenQuery={openQuery}
                  onOpenEntity={setEntityIri}
                />
              </TabsContent>
              <TabsContent value="sparql" forceMount className="data-[state=inactive]:hidden">
                <SparqlPanel
                  kgId={selected?.kgId ?? selectedKgId}
                  query={query}
                  language={queryLanguage}
                  onQueryChange={setQuery}
                  onOpenEntity={setEntityIri}
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
              </TabsContent>
            </Tabs>
          </aside>
        </div>

        <EntityCard kgId={entityKg} iri={entityIri} onOpenChange={(o) => !o && setEntityIri(null)} />
        <UploadDialog
          open={uploadOpen}
          onOpenChange={setUploadOpen}
          onUploaded={(kg) => {
            void loadKgs();
            updateConfig({ kgId: kg.id });
          }}
        />
        <EndpointDialog
          open={endpointOpen}
          onOpenChange={setEndpointOpen}
          onAdded={(kg) => {
            void loadKgs();
            updateConfig({ kgId: kg.id });
          }}
        />
      </div>
    </TooltipProvider>
  );
}
