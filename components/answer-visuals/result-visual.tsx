// A result with the views that fit its shape (choose-view.ts) and a switch back to the table: the chart is shown
// first when one fits; "Table" always shows the table as it was.
"use client";
import { useMemo, useState, type ReactNode } from "react";
import { ChartColumnIcon, ChartLineIcon, ChartScatterIcon, MapIcon, TableIcon } from "lucide-react";
import { cn } from "@/lib/utils";
import { chooseViews, type ViewKind, type VisualTable } from "./choose-view";
import { ViewChart } from "./view-chart";

const NAMES: Record<ViewKind, { label: string; Icon: typeof TableIcon }> = {
  bar: { label: "Bar chart", Icon: ChartColumnIcon },
  line: { label: "Line chart", Icon: ChartLineIcon },
  scatter: { label: "Scatter plot", Icon: ChartScatterIcon },
  map: { label: "Map", Icon: MapIcon },
};

export function ViewSwitch<T extends string>({ options, value, onChange, label }: { options: { value: T; label: string; Icon: typeof TableIcon }[]; value: T; onChange: (v: T) => void; label: string }) {
  return (
    <div role="group" aria-label={label} className="inline-flex self-start rounded-md border p-0.5" data-testid="view-switch">
      {options.map((o) => (
        <button
          key={o.value}
          type="button"
          aria-pressed={value === o.value}
          onClick={() => onChange(o.value)}
          data-testid="view-option"
          data-view={o.value}
          className={cn(
            "inline-flex items-center gap-1 rounded px-2 py-0.5 text-xs text-muted-foreground hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none",
            value === o.value && "bg-accent text-accent-foreground",
          )}
        >
          <o.Icon className="size-3.5" aria-hidden />
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** `table` drawn as its best-fitting view, with a switch among the views and the table (`children`). */
export function ResultVisual({ table, children, onOpenEntity, className }: { table: VisualTable; children: ReactNode; onOpenEntity?: (iri: string) => void; className?: string }) {
  const views = useMemo(() => chooseViews(table), [table]);
  const [shown, setShown] = useState<ViewKind | "table" | null>(null);
  if (views.length === 0) return <>{children}</>;
  const current = shown ?? views[0].kind;
  const spec = views.find((v) => v.kind === current);
  const options = [...views.map((v) => ({ value: v.kind as ViewKind | "table", ...NAMES[v.kind] })), { value: "table" as const, label: "Table", Icon: TableIcon }];
  return (
    <div className={cn("flex min-w-0 flex-col gap-2", className)} data-testid="result-visual" data-view={current}>
      <ViewSwitch options={options} value={current} onChange={setShown} label="Show the result as" />
      {spec ? <ViewChart table={table} spec={spec} onOpenEntity={onOpenEntity} /> : children}
    </div>
  );
}
