// What the charts are told to draw: bars in the rows' order (horizontal for many or long labels), lines sorted by
// time, the map's points and outlines with bounds around them, the provenance graph's nodes and edges.
import { describe, expect, it } from "vitest";
import { barOption, lineOption, viewTitle } from "./chart-options";
import type { VisualCell, VisualTable } from "./choose-view";
import { graphBox, graphData, graphOption } from "./graph-options";
import { boundsOf, mapFeatures, mapOption } from "./map-options";
import type { ChartColors } from "./theme-colors";

const colors: ChartColors = { series: ["#111"], text: "#000", muted: "#666", grid: "#eee", land: "#ddd", landBorder: "#ccc", sea: "#eef", background: "#fff" };
const XSD = "http://www.w3.org/2001/XMLSchema#";
const int = (n: number): VisualCell => ({ type: "literal", value: String(n), datatype: `${XSD}integer` });
const ent = (name: string): VisualCell => ({ type: "uri", value: `http://e/${name}`, label: name });
type Axis = { type: string; data?: string[]; inverse?: boolean; name?: string };

describe("barOption", () => {
  it("draws short labels as columns in the rows' order, with the value column's title on the value axis", () => {
    const t: VisualTable = { columns: ["genre", "films"], rows: [[ent("Drama"), int(3)], [ent("Farce"), int(1)]] };
    const o = barOption(t, { kind: "bar", label: 0, values: [1] }, colors) as { xAxis: Axis; yAxis: Axis; series: { data: unknown[] }[] };
    expect(o.xAxis).toMatchObject({ type: "category", data: ["Drama", "Farce"] });
    expect(o.yAxis).toMatchObject({ type: "value", name: "films" });
    expect(o.series[0].data).toEqual([3, 1]);
  });

  it("turns many labels into horizontal bars, first row on top", () => {
    const t: VisualTable = { columns: ["k", "n"], rows: Array.from({ length: 12 }, (_, i) => [ent(`k${i}`), int(i)]) };
    const o = barOption(t, { kind: "bar", label: 0, values: [1] }, colors) as { xAxis: Axis; yAxis: Axis };
    expect(o.yAxis).toMatchObject({ type: "category", inverse: true });
    expect(o.xAxis.type).toBe("value");
  });

  it("on a phone lays five or more bars sideways; names get the room the longest needs, less on a phone", () => {
    const t: VisualTable = { columns: ["k", "n"], rows: Array.from({ length: 5 }, (_, i) => [ent(i === 0 ? "science fiction film" : `k${i}`), int(i)]) };
    const wide = barOption(t, { kind: "bar", label: 0, values: [1] }, colors) as { xAxis: Axis; yAxis: Axis & { axisLabel: { width: number } } };
    type Horizontal = { yAxis: Axis & { axisLabel: { width: number; overflow: string } }; grid: { left: number } };
    const narrow = barOption(t, { kind: "bar", label: 0, values: [1] }, colors, true) as Horizontal;
    expect(wide.xAxis.type).toBe("value"); // a 20-letter name: sideways at any width
    expect(narrow.yAxis).toMatchObject({ type: "category", axisLabel: { overflow: "truncate" } });
    // "science fiction film" fits whole (~130 px), and the grid leaves it that room
    expect(narrow.yAxis.axisLabel.width).toBeGreaterThanOrEqual(125);
    expect(narrow.grid.left).toBe(narrow.yAxis.axisLabel.width + 20);
    const short: VisualTable = { columns: ["k", "n"], rows: Array.from({ length: 5 }, (_, i) => [ent(`k${i}`), int(i)]) };
    expect((barOption(short, { kind: "bar", label: 0, values: [1] }, colors) as { xAxis: Axis }).xAxis.type).toBe("category");
    expect((barOption(short, { kind: "bar", label: 0, values: [1] }, colors, true) as Horizontal).yAxis.axisLabel.width).toBe(40);
  });
});

describe("lineOption", () => {
  it("sorts the points by date", () => {
    const d = (v: string): VisualCell => ({ type: "literal", value: v, datatype: `${XSD}date` });
    const t: VisualTable = { columns: ["day", "n"], rows: [[d("2002-01-01"), int(5)], [d("2001-01-01"), int(3)]] };
    const o = lineOption(t, { kind: "line", x: 0, values: [1], xKind: "date" }, colors) as { series: { data: [number, number][] }[] };
    expect(o.series[0].data.map((p) => p[1])).toEqual([3, 5]);
  });

  it("is titled per year for years, over time for dates", () => {
    const t: VisualTable = { columns: ["year", "films"], rows: [] };
    expect(viewTitle(t, { kind: "line", x: 0, values: [1], xKind: "year" })).toBe("films per year");
    expect(viewTitle({ columns: ["day", "price"], rows: [] }, { kind: "line", x: 0, values: [1], xKind: "date" })).toBe("price over time (day)");
  });
});

describe("map features", () => {
  it("places points and outlines, counts what it cannot place, and bounds the data", () => {
    const w = (v: string): VisualCell => ({ type: "literal", value: v, datatype: "http://www.opengis.net/ont/geosparql#wktLiteral" });
    const t: VisualTable = { columns: ["p", "g"], rows: [[ent("A"), w("POINT(10 60)")], [ent("B"), w("LINESTRING(11 61, 12 62)")], [ent("C"), w("<http://www.opengis.net/def/crs/EPSG/0/3857> POINT(1 2)")]] };
    const f = mapFeatures(t, { kind: "map", wkt: 1, label: 0 });
    expect(f.points).toEqual([{ name: "A", value: [10, 60], iri: "http://e/A" }]);
    expect(f.paths).toHaveLength(1);
    expect(f.skipped).toBe(1);
    const [[west, north], [east, south]] = boundsOf(f)!;
    expect(west).toBeLessThan(10);
    expect(east).toBeGreaterThan(12);
    expect(north).toBeGreaterThan(62);
    expect(south).toBeLessThan(60);
  });

  it("names an outline next to it, as points are named", () => {
    const w = (v: string): VisualCell => ({ type: "literal", value: v, datatype: "http://www.opengis.net/ont/geosparql#wktLiteral" });
    const t: VisualTable = { columns: ["p", "g"], rows: [[ent("Zone"), w("POLYGON((5.2 60.3, 5.5 60.3, 5.5 60.5, 5.2 60.5, 5.2 60.3))")], [ent("A"), w("POINT(10 60)")]] };
    const o = mapOption(t, { kind: "map", wkt: 1, label: 0 }, colors) as { series: { type: string; label: { show: boolean }; data: { name: string; value?: number[] }[] }[] };
    const named = o.series.filter((x) => x.type === "scatter" && x.label.show).flatMap((x) => x.data);
    expect(named.map((d) => d.name).sort()).toEqual(["A", "Zone"]);
    const zone = named.find((d) => d.name === "Zone")!.value!;
    expect(zone[0]).toBeCloseTo(5.35);
    expect(zone[1]).toBeCloseTo(60.5);
  });
});

describe("graphData", () => {
  it("makes entity nodes once, a value node per subject, and marks the answer's entities", () => {
    const uri = (v: string, label?: string) => ({ type: "uri" as const, value: `http://e/${v}`, ...(label ? { label } : {}) });
    const lit = (v: string) => ({ type: "literal" as const, value: v });
    const g = graphData(
      [
        { subject: uri("HP", "Harry Potter"), predicate: uri("author", "author"), object: uri("JKR", "J. K. Rowling") },
        { subject: uri("JKR", "J. K. Rowling"), predicate: uri("born", "born"), object: lit("1965") },
        { subject: uri("HP", "Harry Potter"), predicate: uri("year", "year"), object: lit("1965") },
      ],
      ["http://e/JKR"],
    );
    expect(g.nodes.filter((n) => n.kind === "answer").map((n) => n.name)).toEqual(["J. K. Rowling"]);
    expect(g.nodes.filter((n) => n.kind === "value")).toHaveLength(2);
    expect(g.edges.map((e) => e.label)).toEqual(["author", "born", "year"]);
  });

  it("gives a one-fact answer a small box, a bigger graph the full width", () => {
    const uri = (v: string) => ({ type: "uri" as const, value: `http://e/${v}` });
    const one = graphData([{ subject: uri("HP"), predicate: uri("author"), object: uri("JKR") }], ["http://e/JKR"]);
    expect(graphBox(one)).toEqual({ height: 170, maxWidth: 480 });
    const many = graphData(Array.from({ length: 12 }, (_, i) => ({ subject: uri("HP"), predicate: uri("p"), object: uri(`o${i}`) })), []);
    expect(graphBox(many).maxWidth).toBeUndefined();
    expect(graphBox(many).height).toBeGreaterThan(graphBox(one).height);
  });

  it("on a phone puts names under their nodes, cut to one short line (none runs off the right edge)", () => {
    const uri = (v: string) => ({ type: "uri" as const, value: `http://e/${v}` });
    const g = graphData([{ subject: uri("Harry_Potter_and_the_Philosophers_Stone"), predicate: uri("director"), object: uri("Chris_Columbus") }], []);
    type Series = { series: { label: { position: string; width?: number; overflow?: string } }[] };
    expect((graphOption(g, "t", colors) as Series).series[0].label.position).toBe("right");
    expect((graphOption(g, "t", colors, true) as Series).series[0].label).toMatchObject({ position: "bottom", width: 100, overflow: "truncate" });
  });

  it("leaves the wheel and drags to the page until zooming is turned on (graph and map)", () => {
    const uri = (v: string) => ({ type: "uri" as const, value: `http://e/${v}` });
    const g = graphData([{ subject: uri("a"), predicate: uri("p"), object: uri("b") }], []);
    expect((graphOption(g, "t", colors) as { series: { roam: unknown }[] }).series[0].roam).toBe(false);
    expect((graphOption(g, "t", colors, false, true) as { series: { roam: unknown }[] }).series[0].roam).toBe(true);
    const t: VisualTable = { columns: ["p", "g"], rows: [[ent("A"), { type: "literal", value: "POINT(10 60)" }]] };
    expect((mapOption(t, { kind: "map", wkt: 1, label: 0 }, colors) as { geo: { roam: unknown } }).geo.roam).toBe(false);
  });
});

describe("unwrapRing", () => {
  it("keeps a ring that crosses the antimeridian on one side (no stripe across the map), and leaves others alone", async () => {
    const { unwrapRing } = await import("./world-outline");
    expect(unwrapRing([[170, 65], [180, 66], [-179, 66], [-175, 65], [180, 64], [170, 65]])).toEqual([[170, 65], [180, 66], [181, 66], [185, 65], [180, 64], [170, 65]]);
    const plain: [number, number][] = [[1, 1], [2, 2], [1, 1]];
    expect(unwrapRing(plain)).toBe(plain);
  });
});
