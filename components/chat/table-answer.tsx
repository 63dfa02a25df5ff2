// A table answer: a real <table> with columns in the query's order, entity links, typed literals, sortable columns
// (keyboard-usable buttons, aria-sort), copy as CSV/TSV, and the first rows with "show all". With a provenance target,
// each row's first cell can be expanded to the KG triples behind that row.
"use client";
import { useMemo, useState } from "react";
import { ArrowDownIcon, ArrowUpIcon, ArrowUpDownIcon } from "lucide-react";
import type { Answer } from "@/lib/pipeline/types";
import { cn } from "@/lib/utils";
import { CopyButton } from "./copy-button";
import { ItemView } from "./item-view";
import { ProvenanceToggle, type ProvenanceTarget } from "./provenance-view";
import { isNumericCell, isTypedValueCell, nextSort, sortedOrder, tableText, type Cell, type SortState } from "./table-data";

export const FIRST_ROWS = 10;

function CellView({ cell, onOpenEntity }: { cell: Cell; onOpenEntity: (iri: string) => void }) {
  if (!cell)
    return (
      <span className="text-muted-foreground">
        <span aria-hidden>—</span>
        <span className="sr-only">no value</span>
      </span>
    );
  return <ItemView item={cell} onOpenEntity={onOpenEntity} />;
}

export function TableAnswer({
  answer,
  provenance,
  onOpenEntity,
}: {
  answer: Extract<Answer, { kind: "table" }>;
  provenance?: ProvenanceTarget;
  onOpenEntity: (iri: string) => void;
}) {
  const [sort, setSort] = useState<SortState>(null);
  const [all, setAll] = useState(false);
  const { columns, rows } = answer;
  const order = useMemo(() => sortedOrder(rows, sort), [rows, sort]);
  const shown = all ? order : order.slice(0, FIRST_ROWS);
  // a column is right-aligned when every bound cell in it is a typed number
  const numeric = useMemo(() => columns.map((_, c) => rows.some((r) => r[c]) && rows.every((r) => !r[c] || isNumericCell(r[c]))), [columns, rows]);
  // dates, numbers and other typed values stay on one line
  const nowrap = useMemo(() => columns.map((_, c) => rows.some((r) => r[c]) && rows.every((r) => !r[c] || isTypedValueCell(r[c]))), [columns, rows]);
  const inOrder = () => order.map((i) => rows[i]);

  return (
    <div data-testid="answer" data-kind="table">
      <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
        <p className="text-xs text-muted-foreground" data-testid="table-size">
          {rows.length} row{rows.length === 1 ? "" : "s"} × {columns.length} columns
        </p>
        <div className="flex items-center gap-1">
          <CopyButton text={() => tableText(columns, inOrder(), "csv")} label="Copy as CSV">
            CSV
          </CopyButton>
          <CopyButton text={() => tableText(columns, inOrder(), "tsv")} label="Copy as TSV">
            TSV
          </CopyButton>
        </div>
      </div>
      <div className="max-h-[32rem] overflow-auto rounded-md border">
        <table className="w-full border-collapse text-sm">
          <caption className="sr-only">
            Answer: {rows.length} rows with the columns {columns.join(", ")}
          </caption>
          <thead className="sticky top-0 z-10 bg-muted">
            <tr>
              {columns.map((name, c) => {
                const dir = sort?.column === c ? sort.dir : undefined;
                const Icon = dir === "asc" ? ArrowUpIcon : dir === "desc" ? ArrowDownIcon : ArrowUpDownIcon;
                return (
                  <th key={`${name}-${c}`} scope="col" aria-sort={dir === "asc" ? "ascending" : dir === "desc" ? "descending" : "none"} className={cn("px-2 py-1 font-medium", numeric[c] ? "text-right" : "text-left")}>
                    <button
                      type="button"
                      onClick={() => setSort((s) => nextSort(s, c))}
                      className="inline-flex items-center gap-1 rounded hover:text-primary focus-visible:ring-2 focus-visible:ring-ring"
                      title={dir === "asc" ? `Sorted by ${name}, ascending: click for descending` : dir === "desc" ? `Sorted by ${name}, descending: click for the query's order` : `Sort by ${name}`}
                      data-testid="sort-column"
                    >
                      {name}
                      {/* the icon always takes its space, so sorting never shifts the header */}
                      <Icon className={cn("size-3.5 shrink-0", dir ? "text-foreground" : "text-muted-foreground/60")} aria-hidden />
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {shown.map((i) => (
              <tr key={i} className="border-t align-top">
                {rows[i].map((cell, c) => (
                  <td key={c} className={cn("px-2 py-1", numeric[c] && "text-right tabular-nums", nowrap[c] && "whitespace-nowrap")}>
                    <CellView cell={cell} onOpenEntity={onOpenEntity} />
                    {c === 0 && provenance && <ProvenanceToggle target={provenance} index={i} what={`row ${i + 1}`} onOpenEntity={onOpenEntity} />}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rows.length > FIRST_ROWS && (
        <button type="button" className="mt-1 text-sm text-primary hover:underline" onClick={() => setAll((v) => !v)} aria-expanded={all}>
          {all ? "Show fewer" : `Show all ${rows.length} rows`}
        </button>
      )}
    </div>
  );
}
