// ECharts options for the views of a result (bar, line, scatter), built from its rows: a title from the column names,
// axis titles with the KG's units, long or many labels as horizontal bars. Pure, so the mapping is tested without a DOM.
import type { EChartsOption } from "./echarts-setup";
import type { ChartColors } from "./theme-colors";
import { axisTitle, cellText, dateOf, numberOf, type ViewSpec, type VisualTable } from "./choose-view";

type Spec<K extends ViewSpec["kind"]> = Extract<ViewSpec, { kind: K }>;

/** counts and other whole numbers get whole ticks (no 0.5 films) */
const wholeNumbers = (table: VisualTable, columns: number[]) => columns.every((c) => table.rows.every((r) => { const n = numberOf(r[c]); return n === undefined || Number.isInteger(n); }));
const formatNumber = (v: number) => (Math.abs(v) >= 1e6 || (Math.abs(v) < 1e-3 && v !== 0) ? v.toExponential(2) : v.toLocaleString("en", { maximumFractionDigits: 3 }));
const yearNumber = (v: number) => String(Math.round(v));

export function viewTitle(table: VisualTable, spec: ViewSpec): string {
  const col = (i: number | undefined) => (i === undefined ? "" : table.columns[i]);
  switch (spec.kind) {
    case "bar":
      return `${spec.values.map(col).join(", ")} by ${col(spec.label)}`;
    case "line":
      // "films per year"; a date column: "price over time (day)"
      return spec.xKind === "year" ? `${spec.values.map(col).join(", ")} per ${col(spec.x)}` : `${spec.values.map(col).join(", ")} over time (${col(spec.x)})`;
    case "scatter":
      return `${col(spec.y)} against ${col(spec.x)}`;
    case "map":
      return `Map: ${col(spec.label ?? spec.wkt ?? spec.lat)}`;
  }
}

function base(title: string, colors: ChartColors, legend: string[]): EChartsOption {
  return {
    color: colors.series,
    textStyle: { color: colors.text, fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    title: { text: title, left: 0, top: 0, textStyle: { fontSize: 13, fontWeight: 600, color: colors.text } },
    aria: { enabled: true },
    animation: false,
    // richText: tooltips drawn by the chart itself, so no KG label is ever read as HTML
    tooltip: { trigger: "item", confine: true, renderMode: "richText" },
    ...(legend.length > 1 ? { legend: { data: legend, top: 22, left: 0, textStyle: { color: colors.muted } } } : {}),
  };
}

const axisStyle = (colors: ChartColors) => ({
  axisLine: { lineStyle: { color: colors.grid } },
  axisLabel: { color: colors.muted },
  splitLine: { lineStyle: { color: colors.grid } },
  nameTextStyle: { color: colors.muted },
});

/** Bars: one per row (label column), one series per number column; horizontal when labels are long or many. */
export function barOption(table: VisualTable, spec: Spec<"bar">, colors: ChartColors, narrow = false): EChartsOption {
  const labels = table.rows.map((r) => cellText(r[spec.label]));
  const horizontal = labels.length > 8 || Math.max(...labels.map((l) => l.length)) > 14 || (narrow && labels.length > 4);
  // sideways bars: the names get the room their longest needs (~6.5 px a character at 11 px), less on a phone so
  // the bars keep some; a name longer than that is cut with "…" (the tooltip and Show data have it whole)
  const longest = Math.max(...labels.map((l) => l.length));
  const labelWidth = horizontal ? Math.max(40, Math.min(narrow ? 130 : 180, Math.ceil(longest * 6.5))) : 90;
  const legend = spec.values.map((c) => table.columns[c]);
  const category = { type: "category" as const, data: labels, ...axisStyle(colors), axisLabel: { color: colors.muted, width: labelWidth, overflow: "truncate" as const, interval: 0, rotate: horizontal ? 0 : labels.length > 4 ? 30 : 0 }, name: horizontal ? "" : table.columns[spec.label], nameLocation: "middle" as const, nameGap: 40 };
  const value = { type: "value" as const, ...axisStyle(colors), ...(wholeNumbers(table, spec.values) ? { minInterval: 1 } : {}), name: spec.values.length === 1 ? axisTitle(table, spec.values[0]) : "", nameLocation: "middle" as const, nameGap: horizontal ? 28 : 46, axisLabel: { color: colors.muted, formatter: formatNumber } };
  return {
    ...base(viewTitle(table, spec), colors, legend),
    grid: { left: horizontal ? labelWidth + 20 : 60, right: 16, top: legend.length > 1 ? 52 : 36, bottom: horizontal ? 40 : labels.length > 4 ? 80 : 50, containLabel: false },
    xAxis: horizontal ? value : category,
    yAxis: horizontal ? { ...category, inverse: true } : value,
    series: spec.values.map((c) => ({
      type: "bar" as const,
      name: table.columns[c],
      data: table.rows.map((r) => numberOf(r[c]) ?? null),
      label: { show: labels.length <= 20 && spec.values.length === 1, position: horizontal ? ("right" as const) : ("top" as const), color: colors.text, formatter: (p: { value: unknown }) => (typeof p.value === "number" ? formatNumber(p.value) : "") },
      barMaxWidth: 48,
    })),
  };
}

/** Lines over time: dates on a time axis, years on a number axis; points sorted by time. */
export function lineOption(table: VisualTable, spec: Spec<"line">, colors: ChartColors): EChartsOption {
  const xOf = (r: VisualTable["rows"][number]) => (spec.xKind === "date" ? dateOf(r[spec.x]) : numberOf(r[spec.x]) ?? Number.parseInt(r[spec.x]?.value ?? "", 10));
  const rows = table.rows.filter((r) => Number.isFinite(xOf(r))).sort((a, b) => (xOf(a) ?? 0) - (xOf(b) ?? 0));
  const legend = spec.values.map((c) => table.columns[c]);
  return {
    ...base(viewTitle(table, spec), colors, legend),
    tooltip: { trigger: "axis", confine: true, renderMode: "richText" },
    grid: { left: 60, right: 20, top: legend.length > 1 ? 52 : 36, bottom: 50 },
    xAxis: {
      type: spec.xKind === "date" ? "time" : "value",
      ...axisStyle(colors),
      // hideOverlap: the first and last year are always labelled, a tick next to them is dropped rather than overprinted
      ...(spec.xKind === "year" ? { min: "dataMin", max: "dataMax", minInterval: 1, axisLabel: { color: colors.muted, formatter: yearNumber, hideOverlap: true } } : { axisLabel: { color: colors.muted, hideOverlap: true } }),
      name: axisTitle(table, spec.x),
      nameLocation: "middle",
      nameGap: 30,
    },
    yAxis: { type: "value", ...axisStyle(colors), ...(wholeNumbers(table, spec.values) ? { minInterval: 1 } : {}), name: spec.values.length === 1 ? axisTitle(table, spec.values[0]) : "", nameLocation: "middle", nameGap: 46, axisLabel: { color: colors.muted, formatter: formatNumber } },
    series: spec.values.map((c) => ({
      type: "line" as const,
      name: table.columns[c],
      showSymbol: rows.length <= 60,
      data: rows.map((r) => [xOf(r), numberOf(r[c]) ?? null]),
    })),
  };
}

/** Points: x and y from two number columns, the label column named in the tooltip. */
export function scatterOption(table: VisualTable, spec: Spec<"scatter">, colors: ChartColors): EChartsOption {
  const points = table.rows
    .map((r) => ({ value: [numberOf(r[spec.x]), numberOf(r[spec.y])], name: spec.label !== undefined ? cellText(r[spec.label]) : "" }))
    .filter((p) => p.value.every((v) => v !== undefined));
  return {
    ...base(viewTitle(table, spec), colors, []),
    tooltip: {
      trigger: "item",
      confine: true,
      renderMode: "richText",
      formatter: (p: unknown) => {
        const { name, value } = p as { name: string; value: number[] };
        return `${name ? `${name}\n` : ""}${table.columns[spec.x]}: ${formatNumber(value[0])}\n${table.columns[spec.y]}: ${formatNumber(value[1])}`;
      },
    },
    grid: { left: 60, right: 20, top: 36, bottom: 50 },
    xAxis: { type: "value", scale: true, ...axisStyle(colors), name: axisTitle(table, spec.x), nameLocation: "middle", nameGap: 30, axisLabel: { color: colors.muted, formatter: formatNumber } },
    yAxis: { type: "value", scale: true, ...axisStyle(colors), name: axisTitle(table, spec.y), nameLocation: "middle", nameGap: 46, axisLabel: { color: colors.muted, formatter: formatNumber } },
    series: [{ type: "scatter", symbolSize: points.length > 500 ? 4 : 9, data: points }],
  };
}
