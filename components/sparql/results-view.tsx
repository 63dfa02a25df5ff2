// The workbench's result: downloads (CSV, TSV, SPARQL JSON; N-Triples for graphs), and the views its shape fits
// (bar, line, scatter, map; a graph for CONSTRUCT/DESCRIBE) with the table one click away.
"use client";
import { useMemo, useState } from "react";
import { DownloadIcon, ShareIcon, TableIcon } from "lucide-react";
import type { SparqlResponse } from "@/lib/api/contract";
import { ResultVisual, ViewSwitch } from "@/components/answer-visuals/result-visual";
import type { VisualCell, VisualTable } from "@/components/answer-visuals/choose-view";
import { TriplesGraph } from "@/components/answer-visuals/graph-view";
import { ResultsTable } from "./results-table";
import { formatsFor, resultFile, type ResultFormat } from "./result-files";

const FORMAT_LABEL: Record<ResultFormat, string> = { csv: "CSV", tsv: "TSV", json: "JSON", nt: "N-Triples" };

function save(response: SparqlResponse, format: ResultFormat) {
  const f = resultFile(response.result, format);
  const url = URL.createObjectURL(new Blob([f.text], { type: f.mime }));
  const a = document.createElement("a");
  a.href = url;
  a.download = f.name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ResultsView({ response, onOpenEntity }: { response: SparqlResponse; onOpenEntity: (iri: string) => void }) {
  const { result, labels } = response;
  const table = useMemo<VisualTable | null>(() => {
    if (result.kind !== "SELECT") return null;
    const cell = (t: (typeof result.results.bindings)[number][string] | undefined): VisualCell | null =>
      !t ? null : t.type === "literal" ? { type: "literal", value: t.value, ...(t.datatype ? { datatype: t.datatype } : {}), ...(t["xml:lang"] ? { lang: t["xml:lang"] } : {}) } : { type: t.type, value: t.value, ...(labels[t.value] ? { label: labels[t.value] } : {}) };
    return { columns: result.head.vars, rows: result.results.bindings.map((b) => result.head.vars.map((v) => cell(b[v]))) };
  }, [result, labels]);
  const triples = useMemo(
    () =>
      result.kind === "CONSTRUCT" || result.kind === "DESCRIBE"
        ? result.triples.map((t) => ({
            subject: { ...t.subject, ...(labels[t.subject.value] ? { label: labels[t.subject.value] } : {}) },
            predicate: { ...t.predicate, ...(labels[t.predicate.value] ? { label: labels[t.predicate.value] } : {}) },
            object: { ...t.object, ...(labels[t.object.value] ? { label: labels[t.object.value] } : {}) },
          }))
        : [],
    [result, labels],
  );
  const [graphView, setGraphView] = useState<"graph" | "table">("graph");
  const tableView = <ResultsTable result={result} labels={labels} onOpenEntity={onOpenEntity} />;

  return (
    <div className="flex min-w-0 flex-col gap-2" data-testid="sparql-results-view">
      <div className="flex flex-wrap items-center gap-1 text-xs text-muted-foreground" data-testid="sparql-downloads">
        <DownloadIcon className="size-3.5" aria-hidden /> Download
        {formatsFor(result).map((f) => (
          <button key={f} type="button" onClick={() => save(response, f)} data-testid={`download-${f}`} className="rounded px-1.5 py-0.5 hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring">
            {FORMAT_LABEL[f]}
          </button>
        ))}
      </div>
      {table && <ResultVisual table={table} onOpenEntity={onOpenEntity}>{tableView}</ResultVisual>}
      {triples.length > 0 && (
        <>
          <ViewSwitch
            options={[
              { value: "graph", label: "Graph", Icon: ShareIcon },
              { value: "table", label: "Table", Icon: TableIcon },
            ]}
            value={graphView}
            onChange={setGraphView}
            label="Show the result as"
          />
          {graphView === "graph" ? <TriplesGraph triples={triples} answerIris={[]} title={`${triples.length} triples`} onOpenEntity={onOpenEntity} loading="Drawing the graph…" /> : tableView}
        </>
      )}
      {!table && triples.length === 0 && tableView}
    </div>
  );
}
