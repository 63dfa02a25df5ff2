// The shared parts of the SVG charts: plot geometry, the y axis with grid lines, and the data table fallback.
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";
import { linearScale, niceTicks } from "@/lib/eval/view-model-scale";
import { formatTick, type ValueFormat } from "./format";

export const CHART = { width: 640, height: 280, top: 24, right: 12, bottom: 44, left: 52 } as const;
export const PLOT = {
  x: CHART.left,
  y: CHART.top,
  width: CHART.width - CHART.left - CHART.right,
  height: CHART.height - CHART.top - CHART.bottom,
};

/** The y scale (value -> SVG y) and its ticks for data up to `max` (or a fixed maximum such as 1 for F1). */
export function yAxisFor(max: number, fixedMax?: number) {
  const ticks = fixedMax !== undefined ? niceTicks(fixedMax, 5) : niceTicks(max, 5);
  const top = ticks[ticks.length - 1];
  return { ticks, top, y: linearScale([0, top], [PLOT.y + PLOT.height, PLOT.y]) };
}

export function YAxis({ ticks, y, format, label }: { ticks: number[]; y: (v: number) => number; format: ValueFormat; label?: string }) {
  return (
    <g aria-hidden className="text-muted-foreground">
      {ticks.map((t) => (
        <g key={t}>
          <line x1={PLOT.x} x2={PLOT.x + PLOT.width} y1={y(t)} y2={y(t)} className={t === 0 ? "stroke-foreground/40" : "stroke-border"} strokeWidth={1} />
          <text x={PLOT.x - 6} y={y(t)} dy="0.32em" textAnchor="end" className="fill-muted-foreground text-[11px]">
            {formatTick(t, format)}
          </text>
        </g>
      ))}
      {label && (
        <text transform={`translate(12 ${PLOT.y + PLOT.height / 2}) rotate(-90)`} textAnchor="middle" className="fill-muted-foreground text-[11px]">
          {label}
        </text>
      )}
    </g>
  );
}

/** Category names under the bars, shortened when long (the full name is in the table and the bar's title). */
export function XLabels({ labels, x, width }: { labels: string[]; x: (i: number) => number; width: number }) {
  const max = Math.max(4, Math.floor(width / 6.5));
  return (
    <g aria-hidden>
      {labels.map((l, i) => (
        <text key={`${l}-${i}`} x={x(i) + width / 2} y={PLOT.y + PLOT.height + 16} textAnchor="middle" className="fill-foreground text-[11px]">
          {l.length > max ? `${l.slice(0, max - 1)}…` : l}
        </text>
      ))}
    </g>
  );
}

export function Legend({ items }: { items: { label: string; className: string }[] }) {
  return (
    <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted-foreground" aria-hidden>
      {items.map((it) => (
        <li key={it.label} className="inline-flex items-center gap-1.5">
          <svg className="size-2.5" viewBox="0 0 10 10">
            <rect width="10" height="10" rx="2" className={it.className} />
          </svg>
          {it.label}
        </li>
      ))}
    </ul>
  );
}

/** The chart's numbers as a table: for screen readers and for anyone who wants the exact values. */
export function DataTable({ caption, head, rows }: { caption: string; head: string[]; rows: ReactNode[][] }) {
  return (
    <details className="text-xs">
      <summary className="cursor-pointer text-muted-foreground select-none hover:text-foreground">Show data</summary>
      <table className="mt-2 w-full border-collapse text-left" data-testid="chart-data">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {head.map((h) => (
              <th key={h} scope="col" className="border-b px-2 py-1 font-medium">
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i}>
              {r.map((c, j) => (j === 0 ? <th key={j} scope="row" className="border-b px-2 py-1 font-normal">{c}</th> : <td key={j} className="border-b px-2 py-1 tabular-nums">{c}</td>))}
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

export function ChartFigure({ title, description, testId, className, children }: { title: string; description?: string; testId?: string; className?: string; children: ReactNode }) {
  return (
    <figure data-testid={testId} className={cn("flex min-w-0 flex-col gap-2 rounded-lg border bg-card p-4", className)}>
      <figcaption>
        <div className="text-sm font-medium">{title}</div>
        {description && <div className="text-xs text-muted-foreground">{description}</div>}
      </figcaption>
      {children}
    </figure>
  );
}
