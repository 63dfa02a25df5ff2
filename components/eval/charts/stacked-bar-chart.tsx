// Stacked bar chart of the /eval pages (ECharts): one bar per category split into segments (e.g. time per stage
// group), the total above each bar, the numbers as a table.
"use client";
import { useCallback } from "react";
import { ChartData, EChart } from "@/components/answer-visuals/echart";
import type { ChartColors } from "@/components/answer-visuals/theme-colors";
import { evalChartBase } from "./eval-chart-base";
import { formatTick, formatValue, type ValueFormat } from "./format";

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
  const totals = categories.map((_, i) => segments.reduce((s, seg) => s + Math.max(0, seg.values[i] ?? 0), 0));
  const option = useCallback(
    (colors: ChartColors) => ({
      ...evalChartBase(title, colors, segments.map((s) => s.label)),
      xAxis: { type: "category" as const, data: categories, axisLabel: { color: colors.text, interval: 0 }, axisLine: { lineStyle: { color: colors.grid } } },
      yAxis: {
        type: "value" as const,
        name: yLabel ?? "",
        nameLocation: "middle" as const,
        nameGap: 44,
        nameTextStyle: { color: colors.muted },
        axisLabel: { color: colors.muted, formatter: (v: number) => formatTick(v, format) },
        splitLine: { lineStyle: { color: colors.grid } },
      },
      series: segments.map((s, j) => ({
        type: "bar" as const,
        name: s.label,
        stack: "total",
        barMaxWidth: 64,
        data: s.values.map((v) => Math.max(0, v ?? 0)),
        tooltip: { valueFormatter: (v: unknown) => formatValue(v as number, format) },
        // the total above the top segment
        ...(j === segments.length - 1
          ? { label: { show: true, position: "top" as const, color: colors.text, fontSize: 11, formatter: (p: { dataIndex: number }) => formatValue(totals[p.dataIndex], format) } }
          : {}),
      })),
    }),
    [title, categories, segments, format, yLabel, totals],
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
        attributes={{ view: "stacked-bar", bars: categories.length }}
        data={
          <ChartData
            caption={title}
            head={["", ...segments.map((s) => s.label), "Total"]}
            rows={categories.map((c, i) => [c, ...segments.map((s) => formatValue(s.values[i], format)), formatValue(totals[i], format)])}
          />
        }
      />
    </div>
  );
}
