// What the /eval charts share: colours from the theme, a legend for several series, tooltips drawn by the chart.
import type { EChartsOption } from "@/components/answer-visuals/echarts-setup";
import type { ChartColors } from "@/components/answer-visuals/theme-colors";

export function evalChartBase(title: string, colors: ChartColors, legend: string[]): EChartsOption {
  return {
    color: colors.series,
    animation: false,
    aria: { enabled: true, label: { description: title } },
    textStyle: { color: colors.text, fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    tooltip: { trigger: "item", confine: true, renderMode: "richText" },
    // the title is drawn in the chart so the PNG/SVG downloads carry it
    title: { text: title, left: 0, top: 0, textStyle: { fontSize: 13, fontWeight: 600, color: colors.text } },
    grid: { left: 56, right: 12, top: legend.length ? 60 : 40, bottom: 40 },
    ...(legend.length ? { legend: { data: legend, top: 24, left: 0, textStyle: { color: colors.muted } } } : {}),
  };
}
