// Bar chart of the /eval pages on the app's one charting library (ECharts, components/answer-visuals/echart.tsx):
// one bar per category, side-by-side bars for several series, each bar's value printed, the numbers as a table.
"use client";
import { useCallback } from "react";
import { ChartData, EChart } from "@/components/answer-visuals/echart";
import type { ChartColors } from "@/components/answer-visuals/theme-colors";
import { evalChartBase } from "./eval-chart-base";
import { formatTick, formatValue, type ValueFormat } from "./format";

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
  const option = useCallback(
    (colors: ChartColors) => ({
      ...evalChartBase(title, colors, series.length > 1 ? series.map((s) => s.label) : []),
      xAxis: { type: "category" as const, data: categories, axisLabel: { color: colors.text, interval: 0, overflow: "truncate" as const, width: 100 }, axisLine: { lineStyle: { color: colors.grid } } },
      yAxis: {
        type: "value" as const,
        ...(max !== undefined ? { max } : {}),
        name: yLabel ?? "",
        nameLocation: "middle" as const,
        nameGap: 44,
        nameTextStyle: { color: colors.muted },
        axisLabel: { color: colors.muted, formatter: (v: number) => formatTick(v, format) },
        splitLine: { lineStyle: { color: colors.grid } },
      },
      series: series.map((s) => ({
        type: "bar" as const,
        name: s.label,
        data: s.values,
        barMaxWidth: 56,
        label: { show: showValues, position: "top" as const, color: colors.text, fontSize: series.length > 2 ? 9 : 11, formatter: (p: { value: unknown }) => formatValue(p.value as number | null, format) },
        tooltip: { valueFormatter: (v: unknown) => formatValue(v as number | null, format) },
      })),
    }),
    [title, categories, series, format, max, yLabel, showValues],
  );
  return (
    <div className={className}>
      <EChart
        title={title}
        description={description}
        option={option}
        height={300}
        testId={testId}
        className="rounded-lg border bg-card p-4"
        attributes={{ view: "bar", bars: series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0) }}
        data={<ChartData caption={title} head={["", ...series.map((s) => s.label)]} rows={categories.map((c, i) => [c, ...series.map((s) => formatValue(s.values[i], format))])} />}
      />
    </div>
  );
}
