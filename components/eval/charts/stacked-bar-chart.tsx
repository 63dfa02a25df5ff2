// Stacked bar chart in hand-written SVG: one bar per category split into segments (e.g. time per stage group),
// with the total above each bar. Accessible like BarChart: role="img", <title>, <desc>, titled segments, data table.
import { useId } from "react";
import { bandLayout } from "@/lib/eval/view-model-scale";
import { ChartFigure, CHART, DataTable, Legend, PLOT, XLabels, YAxis, yAxisFor } from "./chart-frame";
import { formatValue, type ValueFormat } from "./format";

const SEGMENT_CLASSES = ["fill-primary", "fill-success", "fill-warning", "fill-accent-foreground/60", "fill-destructive/70"];

export interface StackedBarChartProps {
  title: string;
  description?: string;
  categories: string[];
  /** stacked bottom to top, in this order */
  segments: { label: string; values: number[] }[];
  format: ValueFormat;
  yLabel?: string;
  testId?: string;
  className?: string;
}

export function StackedBarChart({ title, description, categories, segments, format, yLabel, testId, className }: StackedBarChartProps) {
  const id = useId();
  const totals = categories.map((_, i) => segments.reduce((s, seg) => s + Math.max(0, seg.values[i] ?? 0), 0));
  const { ticks, y } = yAxisFor(Math.max(0, ...totals));
  const band = bandLayout(categories.length, PLOT.x, PLOT.width, 0.35);
  const summary = categories
    .map((c, i) => `${c}: total ${formatValue(totals[i], format)} (${segments.map((s) => `${s.label} ${formatValue(s.values[i], format)}`).join(", ")})`)
    .join("; ");

  return (
    <ChartFigure title={title} description={description} testId={testId} className={className}>
      <Legend items={segments.map((s, i) => ({ label: s.label, className: SEGMENT_CLASSES[i % SEGMENT_CLASSES.length] }))} />
      <svg
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        className="h-auto w-full overflow-visible"
        data-testid="stacked-bar-chart"
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        <YAxis ticks={ticks} y={y} format={format} label={yLabel} />
        {categories.map((c, i) => {
          let base = 0;
          return (
            <g key={c} data-testid="stack" data-category={c} data-total={totals[i]}>
              {segments.map((s, j) => {
                const v = Math.max(0, s.values[i] ?? 0);
                const y0 = y(base);
                base += v;
                if (v === 0) return null;
                return (
                  <rect
                    key={s.label}
                    data-testid="segment"
                    data-segment={s.label}
                    data-value={v}
                    x={band.x(i)}
                    y={y(base)}
                    width={band.width}
                    height={Math.max(1, y0 - y(base))}
                    className={SEGMENT_CLASSES[j % SEGMENT_CLASSES.length]}
                  >
                    <title>{`${c} · ${s.label}: ${formatValue(v, format)}`}</title>
                  </rect>
                );
              })}
              <text x={band.x(i) + band.width / 2} y={y(totals[i]) - 4} textAnchor="middle" className="fill-foreground text-[11px] tabular-nums" aria-hidden>
                {formatValue(totals[i], format)}
              </text>
            </g>
          );
        })}
        <XLabels labels={categories} x={band.x} width={band.width} />
      </svg>
      <DataTable
        caption={title}
        head={["", ...segments.map((s) => s.label), "Total"]}
        rows={categories.map((c, i) => [c, ...segments.map((s) => formatValue(s.values[i], format)), formatValue(totals[i], format)])}
      />
    </ChartFigure>
  );
}
