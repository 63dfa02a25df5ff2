// The query tab, and the full-page workbench: the query behind the answer, editable with KG-aware completion, hover and
// diagnostics in place, formatted with the KG's prefixes; run against the same KG (Ctrl+Enter); results in the
// projection's order with downloads and the views their shape fits. SQL (a RAGONITE answer's) runs on the database
// induced from the KG, and is labelled so. With a finished turn selected, the edited SPARQL can re-run that turn.
// A query using well-known prefixes (rdfs:, xsd:, …) undeclared runs with them declared; the editor then shows that query.
"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import Link from "next/link";
import { ExternalLinkIcon, HistoryIcon, PlayIcon, RotateCcwIcon, TriangleAlertIcon, WandSparklesIcon } from "lucide-react";
import type { Diagnostic, SparqlResponse } from "@/lib/api/contract";
import { cn } from "@/lib/utils";
import { Button } from "@/components/ui/button";
import { errorSentence } from "@/lib/error-sentences";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { CopyButton } from "@/components/chat/copy-button";
import { api, ApiRequestError } from "@/components/api-client";
import { assist } from "./assist-client";
import { DiagnosticsList } from "./diagnostics-list";
import type { CheckStatus } from "./editor-assist";
import { useQueryHistory } from "./query-history";
import { ResultsView } from "./results-view";
import { SparqlEditor, type QueryLanguage } from "./sparql-editor";

interface RunError {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

/** The full-page workbench's address for a KG and a query (what "Copy link" copies). */
export function workbenchHref(kgId: string | undefined, query: string): string {
  const params = new URLSearchParams();
  if (kgId) params.set("kg", kgId);
  if (query.trim()) params.set("q", query);
  return `/workbench${params.size ? `?${params}` : ""}`;
}

export function SparqlPanel({
  kgId,
  query,
  language = "sparql",
  onQueryChange,
  onOpenEntity,
  rerun,
  historyKey,
  page = false,
}: {
  kgId: string | undefined;
  query: string;
  language?: QueryLanguage;
  onQueryChange: (q: string) => void;
  onOpenEntity: (iri: string) => void;
  /** re-run the selected turn with this query as its final query (absent: no finished turn, or SQL) */
  rerun?: { label: string; disabled: boolean; onRerun: (query: string) => void };
  /** whose query history this is (a conversation's id; default: the KG's) */
  historyKey?: string;
  /** the full-page workbench (no maximise, no link to itself) */
  page?: boolean;
}) {
  const [result, setResult] = useState<SparqlResponse | null>(null);
  const [error, setError] = useState<RunError | null>(null);
  const [running, setRunning] = useState(false);
  const [diagnostics, setDiagnostics] = useState<{ list?: Diagnostic[]; status: CheckStatus }>({ list: [], status: "complete" });
  const [formatNote, setFormatNote] = useState<string | null>(null);
  const queryRef = useRef(query);
  queryRef.current = query;
  const kgRef = useRef(kgId);
  kgRef.current = kgId;
  const abortRef = useRef<AbortController | null>(null);
  /** the text this panel itself put in the editor (typed, formatted, from history): anything else came from a turn */
  const ownText = useRef(query);
  const history = useQueryHistory(historyKey ?? `kg:${kgId ?? "none"}`);
  const sparqlMode = language === "sparql";

  const setOwn = useCallback(
    (q: string) => {
      ownText.current = q;
      onQueryChange(q);
    },
    [onQueryChange],
  );

  const format = useCallback(
    async (text: string, quiet = false) => {
      if (!kgRef.current || !text.trim()) return;
      try {
        const r = await assist.format(kgRef.current, text);
        // typed on meanwhile: the formatted text is stale
        if (queryRef.current !== text) return;
        setFormatNote(r.note ?? null);
        if (r.query !== text) setOwn(r.query);
      } catch (e) {
        if (!quiet) setFormatNote(e instanceof ApiRequestError ? `Not formatted: ${e.error.message}` : "Not formatted: the server did not answer.");
      }
    },
    [setOwn],
  );

  // the final query of a turn arrives from outside: shown formatted, with PREFIX lines and the KG's prefixes
  useEffect(() => {
    if (query === ownText.current) return;
    ownText.current = query;
    setFormatNote(null);
    if (sparqlMode && query.trim()) void format(query, true);
  }, [query, sparqlMode, format]);

  const run = async () => {
    if (!kgId || !queryRef.current.trim()) return;
    abortRef.current?.abort();
    const controller = new AbortController();
    abortRef.current = controller;
    setRunning(true);
    setError(null);
    const sent = queryRef.current;
    try {
      const response = await (language === "sql" ? api.sql : api.sparql)(kgId, sent, controller.signal);
      setResult(response);
      const rows = response.result.kind === "SELECT" ? response.result.results.bindings.length : response.result.kind === "ASK" ? 1 : response.result.triples.length;
      history.add(sent, `${rows} ${rows === 1 ? "row" : "rows"}`);
      // the editor shows the query as it ran (well-known prefixes declared), unless the user typed on meanwhile
      if (response.declared && queryRef.current === sent) setOwn(response.declared.query);
    } catch (e) {
      if (controller.signal.aborted) return;
      setResult(null);
      if (e instanceof ApiRequestError) {
        setError({ code: e.error.code, message: e.error.message, line: e.error.where?.line, column: e.error.where?.column });
        history.add(sent, e.error.code);
      } else setError({ code: "network", message: e instanceof Error ? e.message : String(e) });
    } finally {
      if (abortRef.current === controller) setRunning(false);
    }
  };

  const assistHooks = useMemo(
    () => ({ getKgId: () => kgRef.current, onDiagnostics: (list: Diagnostic[] | undefined, status: CheckStatus) => setDiagnostics({ list, status }) }),
    [],
  );
  const big = page;

  return (
    <div className="flex h-full min-h-0 flex-col gap-2 p-3" data-testid="sparql-panel" data-language={language}>
      <div className="flex items-center gap-2">
        <p className="min-w-0 flex-1 text-xs text-muted-foreground" data-testid="query-language">
          {language === "sql" ? (
            <>
              <strong className="text-foreground">SQL</strong> over the database induced from the KG (read-only, one SELECT)
            </>
          ) : (
            <>
              <strong className="text-foreground">SPARQL</strong> on the KG (read-only){sparqlMode && " · Ctrl+Space completes"}
            </>
          )}
        </p>
        {/* the side panel itself resizes and maximises (components/chat/side-panel.tsx); this opens a page of its own */}
        {!page && sparqlMode && (
          <Button asChild size="icon" variant="ghost" className="size-7" title="Open the workbench on its own page">
            <Link href={workbenchHref(kgId, query)} target="_blank" aria-label="Open the workbench on its own page" data-testid="sparql-full-page">
              <ExternalLinkIcon />
            </Link>
          </Button>
        )}
      </div>
      {/* the editor's height is the user's: drag its bottom edge */}
      <div className={cn("shrink-0 resize-y overflow-hidden", big ? "h-[32vh] min-h-32" : "h-56 min-h-24")} data-testid="sparql-editor-box">
        <SparqlEditor value={query} onChange={(v) => (ownText.current = v, onQueryChange(v))} onRun={run} language={language} assist={sparqlMode ? assistHooks : undefined} />
      </div>
      {sparqlMode && <DiagnosticsList diagnostics={diagnostics.list} status={diagnostics.status} />}
      <div className="flex flex-wrap items-center gap-1.5">
        <Button size="sm" onClick={run} disabled={running || !kgId || !query.trim()} data-testid="sparql-run">
          <PlayIcon /> {running ? "Running…" : "Run"}
        </Button>
        {sparqlMode && (
          <Button size="sm" variant="outline" onClick={() => void format(queryRef.current)} disabled={!kgId || !query.trim()} data-testid="sparql-format" title="One clause per line, PREFIX lines with the KG's prefixes">
            <WandSparklesIcon /> Format
          </Button>
        )}
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button size="sm" variant="outline" disabled={history.entries.length === 0} data-testid="sparql-history" aria-label={`Query history (${history.entries.length})`}>
              <HistoryIcon /> History
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="start" className="max-h-80 w-[min(28rem,90vw)] overflow-y-auto">
            {history.entries.map((h) => (
              <DropdownMenuItem key={`${h.at}`} onSelect={() => setOwn(h.query)} data-testid="sparql-history-entry" className="flex-col items-start gap-0">
                <span className="w-full truncate font-mono text-xs">{h.query.replace(/^(PREFIX[^\n]*\n)+/i, "").replace(/\s+/g, " ")}</span>
                <span className="text-[11px] text-muted-foreground">
                  {new Date(h.at).toLocaleString()} · {h.outcome}
                </span>
              </DropdownMenuItem>
            ))}
          </DropdownMenuContent>
        </DropdownMenu>
        {rerun && (
          <Button size="sm" variant="outline" onClick={() => rerun.onRerun(queryRef.current)} disabled={rerun.disabled || !query.trim()} data-testid="sparql-rerun-turn">
            <RotateCcwIcon /> {rerun.label}
          </Button>
        )}
        <span className="ml-auto flex items-center gap-0.5">
          {result && <span className="mr-1 text-xs tabular-nums text-muted-foreground">{Math.round(result.ms)} ms</span>}
          {sparqlMode && (
            <CopyButton text={() => new URL(workbenchHref(kgId, queryRef.current), window.location.origin).toString()} label="Copy a link to this query in the workbench">
              Link
            </CopyButton>
          )}
          <CopyButton text={query} label="Copy query">
            Query
          </CopyButton>
        </span>
      </div>
      {formatNote && <p className="text-xs text-muted-foreground" data-testid="sparql-format-note">{formatNote}</p>}
      {error && (
        <div role="alert" data-testid="sparql-error" className="rounded border border-destructive/50 bg-destructive/5 p-2 text-sm">
          {/* what happened and what to do in words; the code and the engine's own words below (chatux, issue 29) */}
          <p className="font-medium text-destructive" data-testid="error-sentence">
            {errorSentence(error.code).what}
            {error.line !== undefined && ` See line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ""}.`}
          </p>
          <p className="text-sm">{errorSentence(error.code).todo}</p>
          <p className="font-mono text-xs whitespace-pre-wrap text-muted-foreground" data-testid="error-details">
            Details: {error.code}: {error.message}
          </p>
        </div>
      )}
      {result?.declared && (
        <p data-testid="sparql-declared" className="text-xs text-muted-foreground">
          Declared {result.declared.prefixes.map((p) => `${p}:`).join(", ")} (well-known {result.declared.prefixes.length === 1 ? "prefix" : "prefixes"} the query used
          without a PREFIX line); the query above is the one that ran.
        </p>
      )}
      {result?.truncated && (
        <p data-testid="sparql-truncated" className="flex items-center gap-1.5 rounded bg-warning/15 px-2 py-1 text-xs">
          <TriangleAlertIcon className="size-3.5 text-warning" aria-hidden /> Only the first {result.rowCap} rows are shown.
        </p>
      )}
      <div className="min-h-0 flex-1 overflow-auto">{result && <ResultsView response={result} onOpenEntity={onOpenEntity} />}</div>
    </div>
  );
}
