// The per-question table of a run: filter by question type and failure reason, sort by any numeric column.
"use client";
import { useMemo, useState } from "react";
import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { Badge } from "@/components/ui/badge";
import { Select } from "@/components/ui/select";
import { distinct, filterAndSort, formatMs, formatScore, type QuestionRow, type SortKey } from "@/lib/eval/view-model";
import { cn } from "@/lib/utils";

const COLUMNS: { key: SortKey | null; label: string; numeric?: boolean }[] = [
  { key: "id", label: "Id" },
  { key: null, label: "Question" },
  { key: "type", label: "Type" },
  { key: "f1", label: "F1", numeric: true },
  { key: null, label: "P", numeric: true },
  { key: null, label: "R", numeric: true },
  { key: null, label: "Answer vs gold" },
  { key: "llmCalls", label: "LLM calls", numeric: true },
  { key: "queries", label: "Queries", numeric: true },
  { key: "ms", label: "Time", numeric: true },
  { key: "failure", label: "Failure" },
];

function failureVariant(f: string) {
  if (f === "ok") return "success" as const;
  if (f === "not scored") return "muted" as const;
  if (f === "partial-answer") return "warning" as const;
  return "destructive" as const;
}

export function QuestionTable({ rows }: { rows: QuestionRow[] }) {
  const [type, setType] = useState("");
  const [failure, setFailure] = useState("");
  const [sort, setSort] = useState<{ key: SortKey; dir: "asc" | "desc" } | null>(null);
  const types = useMemo(() => distinct(rows, "type"), [rows]);
  const failures = useMemo(() => distinct(rows, "failure"), [rows]);
  // unsorted until a header is clicked: the run's own order
  const visible = useMemo(() => filterAndSort(rows, { type, failure }, sort?.key ?? null, sort?.dir ?? "asc"), [rows, type, failure, sort]);

  const toggle = (key: SortKey) =>
    setSort((s) => (s?.key === key ? { key, dir: s.dir === "asc" ? "desc" : "asc" } : { key, dir: key === "f1" || key === "id" || key === "type" || key === "failure" ? "asc" : "desc" }));

  return (
    <section className="flex flex-col gap-3" aria-labelledby="questions-heading">
      <div className="flex flex-wrap items-end gap-3">
        <h2 id="questions-heading" className="mr-auto text-base font-semibold">
          Questions <span className="text-sm font-normal text-muted-foreground" data-testid="question-count">({visible.length} of {rows.length})</span>
        </h2>
        <label className="flex items-center gap-2 text-xs text-muted-foreground">
          Type
          <Select value={type} onChange={(e) => setType(e.target.value)} data-testid="filter-type" aria-label="Filter by question type">
            <option value="">all</option>
            {types.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </Select>
        </label>
        <label className="flex items-center gap-2 text-xs text-muted-foreground">
          Failure
          <Select value={failure} onChange={(e) => setFailure(e.target.value)} data-testid="filter-failure" aria-label="Filter by failure reason">
            <option value="">all</option>
            {failures.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </Select>
        </label>
      </div>
      <div className="overflow-x-auto rounded-lg border bg-card">
        <table className="w-full text-sm" data-testid="question-table">
          <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
            <tr>
              {COLUMNS.map((c) => {
                const active = sort && c.key === sort.key;
                return (
                  <th
                    key={c.label}
                    scope="col"
                    className={cn("px-2 py-2 font-medium whitespace-nowrap", c.numeric && "text-right")}
                    aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}
                  >
                    {c.key ? (
                      <button type="button" className="inline-flex items-center gap-1 hover:text-foreground" onClick={() => toggle(c.key!)} data-testid={`sort-${c.key}`}>
                        {c.label}
                        {active && (sort.dir === "asc" ? <ArrowUpIcon className="size-3" /> : <ArrowDownIcon className="size-3" />)}
                      </button>
                    ) : (
                      c.label
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {visible.map((r) => (
              <tr key={r.key} className="border-b align-top last:border-0" data-testid="question-row" data-type={r.type} data-failure={r.failure}>
                <td className="px-2 py-1.5 font-mono text-xs whitespace-nowrap">{r.id}</td>
                <td className="max-w-72 px-2 py-1.5">{r.question}</td>
                <td className="px-2 py-1.5">{r.type}</td>
                <td className="px-2 py-1.5 text-right font-medium tabular-nums" data-testid="row-f1">
                  {formatScore(r.f1)}
                </td>
                <td className="px-2 py-1.5 text-right tabular-nums">{formatScore(r.precision)}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{formatScore(r.recall)}</td>
                <td className="max-w-64 px-2 py-1.5 text-xs">
                  <div>
                    <span className="text-muted-foreground">answer </span>
                    {r.answer}
                  </div>
                  <div>
                    <span className="text-muted-foreground">gold </span>
                    {r.gold}
                  </div>
                </td>
                <td className="px-2 py-1.5 text-right tabular-nums">{r.llmCalls}</td>
                <td className="px-2 py-1.5 text-right tabular-nums">{r.queries}</td>
                <td className="px-2 py-1.5 text-right whitespace-nowrap tabular-nums">{formatMs(r.ms)}</td>
                <td className="px-2 py-1.5">
                  <Badge variant={failureVariant(r.failure)}>{r.failure}</Badge>
                  {r.error && <div className="mt-1 max-w-48 text-xs break-words text-muted-foreground">{r.error}</div>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
