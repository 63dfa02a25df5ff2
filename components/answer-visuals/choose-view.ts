// Which picture fits a result, from its shape alone: a label and a number → bars; a date or year and a number → a
// line; two numbers → a scatter; WKT geometries or a latitude/longitude pair → a map. The table is always there to
// switch back to. Pure: the chat's table answers and the workbench's SELECT results both come here as rows of cells.
import { looksLikeWkt, WKT_DATATYPE } from "./wkt";

export interface VisualCell {
  type: "uri" | "literal" | "bnode";
  value: string;
  /** an entity's name (the KG's label) */
  label?: string;
  datatype?: string;
  lang?: string;
}

export interface VisualTable {
  columns: string[];
  rows: (VisualCell | null)[][];
}

export type ViewSpec =
  | { kind: "bar"; label: number; values: number[] }
  | { kind: "line"; x: number; values: number[]; xKind: "date" | "year" }
  | { kind: "scatter"; x: number; y: number; label?: number }
  | { kind: "map"; wkt?: number; lat?: number; lon?: number; label?: number };

export type ViewKind = ViewSpec["kind"];

const XSD = "http://www.w3.org/2001/XMLSchema#";
const NUMERIC = new Set(["integer", "decimal", "float", "double", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte"].map((t) => XSD + t));
const DATES = new Set(["date", "dateTime", "dateTimeStamp", "gYearMonth"].map((t) => XSD + t));
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE = /^-?\d{4}-\d{2}(-\d{2})?(T[\d:.]+(Z|[+-]\d{2}:\d{2})?)?$/;
/** most bars a bar chart draws readably; more → the table */
export const MAX_BARS = 60;
export const MAX_POINTS = 5000;

export function numberOf(cell: VisualCell | null): number | undefined {
  if (!cell || cell.type !== "literal") return undefined;
  const typedNumber = cell.datatype ? NUMERIC.has(cell.datatype) : false;
  // an untyped or string literal counts only when the column is all numbers (see columnKind); a unit datatype counts
  const maybe = typedNumber || !cell.datatype || !cell.datatype.startsWith(XSD);
  if (!maybe || !NUMBER.test(cell.value.trim())) return undefined;
  const n = Number(cell.value);
  return Number.isFinite(n) ? n : undefined;
}

/** A year as a number: xsd:gYear, or an integer column whose name says year (values 1–2999). */
function yearOf(cell: VisualCell | null, yearNamed: boolean): number | undefined {
  if (!cell || cell.type !== "literal") return undefined;
  if (cell.datatype === `${XSD}gYear`) return Number.parseInt(cell.value, 10);
  const n = numberOf(cell);
  return yearNamed && n !== undefined && Number.isInteger(n) && n > 0 && n < 3000 ? n : undefined;
}

/** Milliseconds since 1970 of a date literal (xsd:date, dateTime, gYearMonth, or an ISO date string). */
export function dateOf(cell: VisualCell | null): number | undefined {
  if (!cell || cell.type !== "literal") return undefined;
  if (!(cell.datatype && DATES.has(cell.datatype)) && !ISO_DATE.test(cell.value)) return undefined;
  const t = Date.parse(cell.datatype === `${XSD}gYearMonth` ? `${cell.value}-01` : cell.value);
  return Number.isFinite(t) ? t : undefined;
}

export type ColumnKind = "number" | "year" | "date" | "wkt" | "label" | "empty";

export function columnKind(table: VisualTable, c: number): ColumnKind {
  const cells = table.rows.map((r) => r[c]).filter((x): x is VisualCell => Boolean(x));
  if (cells.length === 0) return "empty";
  const name = table.columns[c] ?? "";
  const yearNamed = /year|jahr|ann[ée]e|a[ñn]o\b/i.test(name);
  if (cells.every((x) => x.type === "literal" && (x.datatype === WKT_DATATYPE || looksLikeWkt(x.value)))) return "wkt";
  if (cells.every((x) => yearOf(x, yearNamed) !== undefined)) return "year";
  if (cells.every((x) => dateOf(x) !== undefined)) return "date";
  if (cells.every((x) => numberOf(x) !== undefined)) return "number";
  return "label";
}

const LAT = /(^|[^a-z])lat(itude)?$|^lat/i;
const LON = /(^|[^a-z])(lon|lng|long|longitude)$|^(lon|lng|long)/i;

/** Latitude and longitude columns named so, with values in range. */
function latLon(table: VisualTable, kinds: ColumnKind[]): { lat: number; lon: number } | undefined {
  const lat = table.columns.findIndex((n, i) => kinds[i] === "number" && LAT.test(n));
  const lon = table.columns.findIndex((n, i) => kinds[i] === "number" && LON.test(n));
  if (lat < 0 || lon < 0 || lat === lon) return undefined;
  const ok = table.rows.every((r) => {
    const [a, o] = [numberOf(r[lat]), numberOf(r[lon])];
    return (a === undefined || Math.abs(a) <= 90) && (o === undefined || Math.abs(o) <= 180);
  });
  return ok ? { lat, lon } : undefined;
}

/** The views that fit, best first (empty: the table is the only view). */
export function chooseViews(table: VisualTable): ViewSpec[] {
  const n = table.rows.length;
  if (n === 0 || table.columns.length === 0) return [];
  const kinds = table.columns.map((_, c) => columnKind(table, c));
  const labels = kinds.flatMap((k, i) => (k === "label" ? [i] : []));
  const numbers = kinds.flatMap((k, i) => (k === "number" ? [i] : []));
  const label = labels[0];
  const out: ViewSpec[] = [];

  const wkt = kinds.indexOf("wkt");
  const ll = latLon(table, kinds);
  if (wkt >= 0 && n <= MAX_POINTS) out.push({ kind: "map", wkt, ...(label !== undefined ? { label } : {}) });
  else if (ll && n <= MAX_POINTS) out.push({ kind: "map", lat: ll.lat, lon: ll.lon, ...(label !== undefined ? { label } : {}) });
  const plain = ll ? numbers.filter((c) => c !== ll.lat && c !== ll.lon) : numbers;

  const time = kinds.findIndex((k) => k === "date" || k === "year");
  // a year column is also numeric-looking: values are the other numbers
  if (time >= 0 && plain.length >= 1 && n >= 2 && n <= MAX_POINTS) out.push({ kind: "line", x: time, values: plain.slice(0, 4), xKind: kinds[time] === "year" ? "year" : "date" });
  if (label !== undefined && plain.length >= 1 && n >= 2 && n <= MAX_BARS) out.push({ kind: "bar", label, values: plain.slice(0, 4) });
  if (plain.length >= 2 && n >= 3 && n <= MAX_POINTS) out.push({ kind: "scatter", x: plain[0], y: plain[1], ...(label !== undefined ? { label } : {}) });
  return out;
}

/** A cell's text for labels: an entity's name (else the IRI's last part), a literal's value. */
export function cellText(cell: VisualCell | null): string {
  if (!cell) return "";
  if (cell.type === "uri") return cell.label || cell.value.replace(/[#/]+$/, "").split(/[#/]/).pop() || cell.value;
  return cell.value;
}

/** A unit the KG gives a column: the local name of a shared non-XSD datatype ("kilometre"), if any. */
export function unitOf(table: VisualTable, c: number): string | undefined {
  const types = new Set(table.rows.map((r) => r[c]).filter((x): x is VisualCell => Boolean(x)).map((x) => x.datatype ?? ""));
  if (types.size !== 1) return undefined;
  const [dt] = [...types];
  if (!dt || dt.startsWith(XSD) || dt === WKT_DATATYPE || dt.endsWith("#langString")) return undefined;
  return decodeURIComponent(dt.replace(/[#/]+$/, "").split(/[#/]/).pop() ?? "") || undefined;
}

/** An axis title: the column's name with its unit when the KG gives one. */
export function axisTitle(table: VisualTable, c: number): string {
  const unit = unitOf(table, c);
  return unit ? `${table.columns[c]} (${unit})` : table.columns[c];
}
