// The query tab: the query behind the answer, editable, run against the same KG (Ctrl+Enter), results, errors, Copy.
// SPARQL runs on the KG; SQL (a RAGONITE answer's) runs on the database induced from the KG, and is labelled so.
// With a finished turn selected, the edited SPARQL can re-run that turn (a new attempt answered by this query).
// A query using well-known prefixes (rdfs:, xsd:, …) undeclared runs with them declared; the editor then shows that query.
"use client";
import { useRef, useState } from "react";
import { PlayIcon, RotateCcwIcon, TriangleAlertIcon } from "lucide-react";
import type { SparqlResponse } from "@/lib/api/contract";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/chat/copy-button";
import { api, ApiRequestError } from "@/components/api-client";
import { ResultsTable } from "./results-table";
import { SparqlEditor, type QueryLanguage } from "./sparql-editor";

interface RunError {
  code: string;
  message: string;
  line?: number;
  column?: number;
}

export function SparqlPanel({
  kgId,
  query,
  language = "sparql",
  onQueryChange,
  onOpenEntity,
  rerun,
}: {
  kgId: string | undefined;
  query: string;
  language?: QueryLanguage;
  onQueryChange: (q: string) => void;
  onOpenEntity: (iri: string) => void;
  /** re-run the selected turn with this query as its final query (absent: no finished turn, or SQL) */
  rerun?: { label: string; disabled: boolean; onRerun: (query: string) => void };
}) {
  const [result, setResult] = useState<SparqlResponse | null>(null);
  const [error, setError] = useState<RunError | null>(null);
  const [running, setRunning] = useState(false);
  const queryRef = useRef(query);
  queryRef.current = query;
  const abortRef = useRef<AbortController | null>(null);

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
      // the editor shows the query as it ran (well-known prefixes declared), unless the user typed on meanwhile
      if (response.declared && queryRef.current === sent) onQueryChange(response.declared.query);
    } catch (e) {
      if (controller.signal.aborted) return;
      setResult(null);
      if (e instanceof ApiRequestError)
        setError({ code: e.error.code, message: e.error.message, line: e.error.where?.line, column: e.error.where?.column });
      else setError({ code: "network", message: e instanceof Error ? e.message : String(e) });
    } finally {
      if (abortRef.current === controller) setRunning(false);
    }
  };

  return (
    <div className="flex h-full min-h-0 flex-col gap-2 p-3" data-testid="sparql-panel" data-language={language}>
      <p className="text-xs text-muted-foreground" data-testid="query-language">
        {language === "sql" ? (
          <>
            <strong className="text-foreground">SQL</strong> over the database induced from the KG (read-only, one SELECT)
          </>
        ) : (
          <>
            <strong className="text-foreground">SPARQL</strong> on the KG (read-only)
          </>
        )}
      </p>
      <div className="h-56 shrink-0">
        <SparqlEditor value={query} onChange={onQueryChange} onRun={run} language={language} />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button size="sm" onClick={run} disabled={running || !kgId || !query.trim()} data-testid="sparql-run">
          <PlayIcon /> {running ? "Running…" : "Run"}
        </Button>
        <span className="text-xs text-muted-foreground">Ctrl+Enter</span>
        {rerun && (
          <Button size="sm" variant="outline" onClick={() => rerun.onRerun(queryRef.current)} disabled={rerun.disabled || !query.trim()} data-testid="sparql-rerun-turn">
            <RotateCcwIcon /> {rerun.label}
          </Button>
        )}
        <CopyButton text={query} label="Copy query" className="ml-auto" />
        {result && <span className="text-xs tabular-nums text-muted-foreground">{Math.round(result.ms)} ms</span>}
      </div>
      {error && (
        <div role="alert" data-testid="sparql-error" className="rounded border border-destructive/50 bg-destructive/5 p-2 text-sm">
          <p className="font-medium text-destructive">
            {error.code}
            {error.line !== undefined && ` at line ${error.line}${error.column !== undefined ? `, column ${error.column}` : ""}`}
          </p>
          <p className="font-mono text-xs whitespace-pre-wrap">{error.message}</p>
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
      <div className="min-h-0 flex-1 overflow-auto">
        {result && <ResultsTable result={result.result} labels={result.labels} onOpenEntity={onOpenEntity} />}
      </div>
    </div>
  );
}
