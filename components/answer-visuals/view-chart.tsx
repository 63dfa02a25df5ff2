// Draws one chosen view of a result (bar, line, scatter, map) with its data table; entity marks open the entity card.
"use client";
import { useCallback, useMemo } from "react";
import { barOption, lineOption, scatterOption, viewTitle } from "./chart-options";
import { cellText, type ViewSpec, type VisualTable } from "./choose-view";
import { ChartData, EChart, type ChartLayout } from "./echart";
import { mapFeatures, mapOption } from "./map-options";
import type { ChartColors } from "./theme-colors";
import { registerWorld } from "./world-outline";

export function ViewChart({ table, spec, onOpenEntity, height }: { table: VisualTable; spec: ViewSpec; onOpenEntity?: (iri: string) => void; height?: number }) {
  const title = viewTitle(table, spec);
  const features = useMemo(() => (spec.kind === "map" ? mapFeatures(table, spec) : undefined), [table, spec]);
  const option = useCallback(
    (colors: ChartColors, layout: ChartLayout) => {
      switch (spec.kind) {
        case "bar":
          return barOption(table, spec, colors, layout.narrow);
        case "line":
          return lineOption(table, spec, colors);
        case "scatter":
          return scatterOption(table, spec, colors);
        case "map":
          return mapOption(table, spec, colors, features, layout.roam);
      }
    },
    [table, spec, features],
  );
  const columns = useMemo(() => {
    const cols = spec.kind === "bar" ? [spec.label, ...spec.values] : spec.kind === "line" ? [spec.x, ...spec.values] : spec.kind === "scatter" ? [spec.label, spec.x, spec.y] : [spec.label, spec.wkt, spec.lat, spec.lon];
    return cols.filter((c): c is number => c !== undefined);
  }, [spec]);
  const skipped = features?.skipped ?? 0;
  const drawn = features ? features.points.length + features.paths.length : table.rows.length;
  return (
    <EChart
      title={title}
      description={skipped ? `${skipped} of ${table.rows.length} rows have a geometry the map cannot place (another coordinate system or bad numbers).` : undefined}
      option={option}
      prepare={spec.kind === "map" ? registerWorld : undefined}
      roamable={spec.kind === "map"}
      height={height ?? (spec.kind === "map" ? 360 : spec.kind === "bar" && table.rows.length > 8 ? Math.min(900, 60 + table.rows.length * 22) : 300)}
      onClick={(p) => {
        const iri = (p.data as { iri?: string } | undefined)?.iri;
        if (iri && onOpenEntity) onOpenEntity(iri);
        else if (spec.kind === "bar" && p.name && onOpenEntity) {
          const row = table.rows.find((r) => cellText(r[spec.label]) === p.name);
          const cell = row?.[spec.label];
          if (cell?.type === "uri") onOpenEntity(cell.value);
        }
      }}
      testId="answer-chart"
      attributes={{ view: spec.kind, points: drawn }}
      data={<ChartData caption={title} head={columns.map((c) => table.columns[c])} rows={table.rows.map((r) => columns.map((c) => cellText(r[c])))} />}
    />
  );
}
