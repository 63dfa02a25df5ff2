// The map view's option: the bundled world outline (Natural Earth via world-atlas, no tile server), points for POINT
// geometries and lat/long pairs, outlines for lines and polygons, zoomed to the data. Pure (tested without a DOM).
import type { EChartsOption } from "./echarts-setup";
import type { ChartColors } from "./theme-colors";
import { viewTitle } from "./chart-options";
import { cellText, numberOf, type ViewSpec, type VisualTable } from "./choose-view";
import { parseWkt, type Coord } from "./wkt";

type MapSpec = Extract<ViewSpec, { kind: "map" }>;

export interface MapFeatures {
  points: { name: string; value: Coord; iri?: string }[];
  paths: { name: string; coords: Coord[]; iri?: string; polygon: boolean }[];
  /** rows whose geometry could not be placed (unknown CRS, bad numbers) */
  skipped: number;
}

export function mapFeatures(table: VisualTable, spec: MapSpec): MapFeatures {
  const out: MapFeatures = { points: [], paths: [], skipped: 0 };
  for (const row of table.rows) {
    const labelCell = spec.label !== undefined ? row[spec.label] : null;
    const name = labelCell ? cellText(labelCell) : "";
    const iri = labelCell?.type === "uri" ? labelCell.value : undefined;
    if (spec.wkt !== undefined) {
      const g = row[spec.wkt] ? parseWkt(row[spec.wkt]!.value) : undefined;
      if (!g) {
        out.skipped++;
        continue;
      }
      if (g.kind === "point") for (const c of g.coords) out.points.push({ name, value: c, iri });
      else for (const p of g.paths) out.paths.push({ name, coords: p, iri, polygon: g.kind === "polygon" });
    } else if (spec.lat !== undefined && spec.lon !== undefined) {
      const [lat, lon] = [numberOf(row[spec.lat]), numberOf(row[spec.lon])];
      if (lat === undefined || lon === undefined) out.skipped++;
      else out.points.push({ name, value: [lon, lat], iri });
    }
  }
  return out;
}

/** [[west, north], [east, south]] around the data, padded, at least ~8 degrees wide so one point shows its region. */
export function boundsOf(f: MapFeatures): [[number, number], [number, number]] | undefined {
  const all = [...f.points.map((p) => p.value), ...f.paths.flatMap((p) => p.coords)];
  if (all.length === 0) return undefined;
  let [w, e, s, n] = [180, -180, 90, -90];
  for (const [lon, lat] of all) [w, e, s, n] = [Math.min(w, lon), Math.max(e, lon), Math.min(s, lat), Math.max(n, lat)];
  const padX = Math.max(4, (e - w) * 0.15);
  const padY = Math.max(3, (n - s) * 0.15);
  return [
    [Math.max(-180, w - padX), Math.min(85, n + padY)],
    [Math.min(180, e + padX), Math.max(-85, s - padY)],
  ];
}

/** Where an outline's name goes: above it, in the middle. */
export function pathLabelAt(coords: Coord[]): Coord {
  const lons = coords.map((c) => c[0]);
  const lats = coords.map((c) => c[1]);
  return [(Math.min(...lons) + Math.max(...lons)) / 2, Math.max(...lats)];
}

/** `roam`: the wheel zooms and a drag moves the map (off, they scroll the page). */
export function mapOption(table: VisualTable, spec: MapSpec, colors: ChartColors, features = mapFeatures(table, spec), roam = false): EChartsOption {
  const bounds = boundsOf(features);
  const labelled = features.points.length <= 25;
  return {
    color: colors.series,
    backgroundColor: colors.sea,
    animation: false,
    aria: { enabled: true },
    textStyle: { color: colors.text, fontFamily: "Inter, ui-sans-serif, system-ui, sans-serif" },
    // the outline reaches under the title: a background keeps it readable
    title: { text: viewTitle(table, spec), left: 0, top: 0, backgroundColor: colors.background, padding: [2, 6], textStyle: { fontSize: 13, fontWeight: 600, color: colors.text } },
    tooltip: { trigger: "item", confine: true, renderMode: "richText" },
    geo: {
      map: "world",
      roam,
      top: 30,
      bottom: 8,
      ...(bounds ? { boundingCoords: bounds } : {}),
      itemStyle: { areaColor: colors.land, borderColor: colors.landBorder, borderWidth: 0.6 },
      emphasis: { disabled: true },
      silent: true,
    },
    series: [
      {
        type: "lines",
        coordinateSystem: "geo",
        polyline: true,
        lineStyle: { color: colors.series[0], width: 2, opacity: 0.9 },
        data: features.paths.map((p) => ({ name: p.name, coords: p.coords, iri: p.iri })),
      },
      // an outline's name above it (a lines series draws no label for a polyline)
      {
        type: "scatter",
        coordinateSystem: "geo",
        symbolSize: 1,
        // a see-through mark (opacity 0 would hide the label with it)
        itemStyle: { color: "rgba(0,0,0,0)" },
        label: { show: features.paths.length <= 10, position: "top", formatter: "{b}", color: colors.text, fontSize: 11 },
        // names that would print over each other: one is left out (its tooltip still names it)
        labelLayout: { hideOverlap: true },
        data: features.paths.filter((p) => p.name).map((p) => ({ name: p.name, value: pathLabelAt(p.coords), iri: p.iri })),
      },
      {
        type: "scatter",
        coordinateSystem: "geo",
        symbolSize: features.points.length > 500 ? 5 : 10,
        itemStyle: { color: colors.series[0], borderColor: colors.background, borderWidth: 1 },
        label: { show: labelled, position: "right", formatter: "{b}", color: colors.text, fontSize: 11 },
        labelLayout: { hideOverlap: true },
        data: features.points.map((p) => ({ name: p.name, value: p.value, iri: p.iri })),
      },
    ],
  };
}
