// The shape → view choice: what a person would draw for each kind of result, and nothing for what does not fit.
import { describe, expect, it } from "vitest";
import { axisTitle, chooseViews, type VisualCell, type VisualTable } from "./choose-view";
import { parseWkt } from "./wkt";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const int = (n: number): VisualCell => ({ type: "literal", value: String(n), datatype: `${XSD}integer` });
const dec = (n: number): VisualCell => ({ type: "literal", value: String(n), datatype: `${XSD}decimal` });
const str = (s: string): VisualCell => ({ type: "literal", value: s });
const ent = (name: string): VisualCell => ({ type: "uri", value: `http://example.org/${name}`, label: name });
const date = (d: string): VisualCell => ({ type: "literal", value: d, datatype: `${XSD}date` });
const wkt = (w: string): VisualCell => ({ type: "literal", value: w, datatype: "http://www.opengis.net/ont/geosparql#wktLiteral" });
const table = (columns: string[], rows: (VisualCell | null)[][]): VisualTable => ({ columns, rows });
const kinds = (t: VisualTable) => chooseViews(t).map((v) => v.kind);

describe("chooseViews", () => {
  it("draws a count per group as bars (entity or text labels)", () => {
    const t = table(["genre", "films"], [[ent("Fantasy"), int(8)], [ent("Drama"), int(3)], [str("Comedy"), int(1)]]);
    expect(chooseViews(t)[0]).toEqual({ kind: "bar", label: 0, values: [1] });
  });

  it("draws a number over dates or years as a line, before bars", () => {
    const byDate = table(["released", "runtime"], [[date("2001-11-16"), int(152)], [date("2002-11-15"), int(161)]]);
    expect(chooseViews(byDate)[0]).toMatchObject({ kind: "line", x: 0, values: [1], xKind: "date" });
    const byYear = table(["year", "count"], [[int(1997), int(1)], [int(1998), int(2)], [int(1999), int(1)]]);
    expect(chooseViews(byYear)[0]).toMatchObject({ kind: "line", x: 0, xKind: "year" });
    const gYear = table(["y", "n"], [[{ type: "literal", value: "2001", datatype: `${XSD}gYear` }, int(3)], [{ type: "literal", value: "2004", datatype: `${XSD}gYear` }, int(5)]]);
    expect(kinds(gYear)).toContain("line");
  });

  it("draws two numbers as a scatter, labelled by the label column", () => {
    const t = table(["film", "budget", "gross"], [[ent("A"), dec(1.5), dec(9)], [ent("B"), dec(2), dec(3)], [ent("C"), dec(4), dec(4.5)]]);
    expect(chooseViews(t)).toContainEqual({ kind: "scatter", x: 1, y: 2, label: 0 });
  });

  it("draws WKT geometries and lat/long pairs on a map, first", () => {
    const places = table(["place", "shape"], [[ent("Oslo"), wkt("POINT(10.75 59.91)")], [ent("Bergen"), wkt("POINT(5.32 60.39)")]]);
    expect(chooseViews(places)[0]).toEqual({ kind: "map", wkt: 1, label: 0 });
    const untyped = table(["g"], [[str("POLYGON((0 0, 1 0, 1 1, 0 0))")]]);
    expect(kinds(untyped)).toEqual(["map"]);
    const ll = table(["city", "lat", "long"], [[ent("Oslo"), dec(59.91), dec(10.75)], [ent("Rome"), dec(41.9), dec(12.5)]]);
    expect(chooseViews(ll)[0]).toEqual({ kind: "map", lat: 1, lon: 2, label: 0 });
    expect(kinds(ll)).not.toContain("scatter"); // the coordinates are not two measurements
  });

  it("offers nothing for lists of entities, single values, text tables or too many bars", () => {
    expect(chooseViews(table(["film"], [[ent("A")], [ent("B")]]))).toEqual([]);
    expect(chooseViews(table(["n"], [[int(3)]]))).toEqual([]);
    expect(chooseViews(table(["a", "b"], [[ent("A"), str("x")], [ent("B"), str("y")]]))).toEqual([]);
    const many = table(["k", "n"], Array.from({ length: 200 }, (_, i) => [str(`k${i}`), int(i)]));
    expect(kinds(many)).not.toContain("bar");
    expect(chooseViews(table(["a", "b"], []))).toEqual([]);
  });

  it("does not take latitude-like numbers out of range for a map", () => {
    const t = table(["lat", "lon"], [[dec(123), dec(10)], [dec(1), dec(2)], [dec(3), dec(4)]]);
    expect(kinds(t)).not.toContain("map");
    expect(kinds(t)).toContain("scatter");
  });

  it("puts the KG's unit datatype in the axis title", () => {
    const km = (n: number): VisualCell => ({ type: "literal", value: String(n), datatype: "http://example.org/datatype/kilometre" });
    const t = table(["river", "length"], [[ent("A"), km(10)], [ent("B"), km(20)]]);
    expect(kinds(t)).toEqual(["bar"]);
    expect(axisTitle(t, 1)).toBe("length (kilometre)");
    expect(axisTitle(table(["n"], [[int(1)]]), 0)).toBe("n");
  });
});

describe("parseWkt", () => {
  it("reads points, lines, polygons and multi-polygons in lon lat order", () => {
    expect(parseWkt("POINT (10.75 59.91)")).toEqual({ kind: "point", coords: [[10.75, 59.91]] });
    expect(parseWkt("<http://www.opengis.net/def/crs/OGC/1.3/CRS84> POINT(1 2)")).toEqual({ kind: "point", coords: [[1, 2]] });
    expect(parseWkt("MULTIPOINT ((1 2), (3 4))")).toEqual({ kind: "point", coords: [[1, 2], [3, 4]] });
    expect(parseWkt("LINESTRING(0 0, 1 1)")).toEqual({ kind: "line", paths: [[[0, 0], [1, 1]]] });
    expect(parseWkt("POLYGON((0 0, 1 0, 1 1, 0 0))")?.kind).toBe("polygon");
    expect(parseWkt("MULTIPOLYGON(((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))")).toMatchObject({ kind: "polygon", paths: [expect.any(Array), expect.any(Array)] });
  });

  it("refuses what it cannot place: another CRS, out-of-range or broken coordinates", () => {
    expect(parseWkt("<http://www.opengis.net/def/crs/EPSG/0/25832> POINT(600000 6600000)")).toBeUndefined();
    expect(parseWkt("POINT(200 10)")).toBeUndefined();
    expect(parseWkt("POINT(a b)")).toBeUndefined();
    expect(parseWkt("CIRCLE(1 2)")).toBeUndefined();
  });
});
