// Bar chart in hand-written SVG: one bar per category, or side-by-side bars when there are several series.
// Accessible: role="img" with a <title> and description, each bar titled, and the numbers as a table.
import { useId } from "react";
import { bandLayout } from "@/lib/eval/view-model-scale";
import { ChartFigure, CHART, DataTable, Legend, PLOT, XLabels, YAxis, yAxisFor } from "./chart-frame";
import { formatValue, type ValueFormat } from "./format";

export const SERIES_CLASSES = ["fill-primary", "fill-warning", "fill-success", "fill-accent-foreground/60"];

export interface BarSeries {
  label: string;
  /** one value per category; null = no value (no bar drawn) */
  values: (number | null)[];
}

export interface BarChartProps {
  title: string;
  description?: string;
  categories: string[];
  series: BarSeries[];
  format: ValueFormat;
  /** fixed axis maximum (1 for scores); else a nice value above the data */
  max?: number;
  yLabel?: string;
  /** print each bar's value above it */
  showValues?: boolean;
  testId?: string;
  className?: string;
}

export function BarChart({ title, description, categories, series, format, max, yLabel, showValues = true, testId, className }: BarChartProps) {
  const id = useId();
  const all = series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const { ticks, top, y } = yAxisFor(Math.max(0, ...all), max);
  const groups = bandLayout(categories.length, PLOT.x, PLOT.width, series.length > 1 ? 0.25 : 0.3);
  const inner = bandLayout(series.length, 0, groups.width, series.length > 1 ? 0.08 : 0);
  const summary = categories
    .map((c, i) => `${c}: ${series.map((s) => `${series.length > 1 ? `${s.label} ` : ""}${formatValue(s.values[i], format)}`).join(", ")}`)
    .join("; ");
  const valueFont = inner.width < 22 ? "text-[9px]" : "text-[11px]";

  return (
    <ChartFigure title={title} description={description} testId={testId} className={className}>
      {series.length > 1 && <Legend items={series.map((s, i) => ({ label: s.label, className: SERIES_CLASSES[i % SERIES_CLASSES.length] }))} />}
      <svg
        role="img"
        aria-labelledby={`${id}-t ${id}-d`}
        viewBox={`0 0 ${CHART.width} ${CHART.height}`}
        className="h-auto w-full overflow-visible"
        data-testid="bar-chart"
      >
        <title id={`${id}-t`}>{title}</title>
        <desc id={`${id}-d`}>{summary}</desc>
        <YAxis ticks={ticks} y={y} format={format} label={yLabel} />
        {categories.map((c, i) =>
          series.map((s, j) => {
            const v = s.values[i];
            if (v === null || v === undefined) return null;
            const x = groups.x(i) + inner.x(j);
            const clamped = Math.min(Math.max(v, 0), top);
            const h = y(0) - y(clamped);
            const text = formatValue(v, format);
            return (
              <g key={`${i}-${j}`}>
                <rect
                  data-testid="bar"
                  data-category={c}
                  data-series={s.label}
                  data-value={v}
                  x={x}
                  y={y(clamped)}
                  width={Math.max(1, inner.width)}
                  height={Math.max(v > 0 ? 1 : 0, h)}
                  rx={2}
                  className={SERIES_CLASSES[j % SERIES_CLASSES.length]}
                >
                  <title>{`${c}${series.length > 1 ? ` · ${s.label}` : ""}: ${text}`}</title>
                </rect>
                {showValues && (
                  <text
                    data-testid="bar-value"
                    x={x + inner.width / 2}
                    y={y(clamped) - 4}
                    textAnchor="middle"
                    className={`fill-foreground tabular-nums ${valueFont}`}
                    aria-hidden
                  >
                    {text}
                  </text>
                )}
              </g>
            );
          }),
        )}
        <XLabels labels={categories} x={groups.x} width={groups.width} />
      </svg>
      <DataTable
        caption={title}
        head={["", ...series.map((s) => s.label)]}
        rows={categories.map((c, i) => [c, ...series.map((s) => formatValue(s.values[i], format))])}
      />
    </ChartFigure>
  );
}
