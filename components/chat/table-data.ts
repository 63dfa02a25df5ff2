// Pure helpers of the table answer: cell text, sorting by a column, and CSV/TSV for the clipboard.
import type { AnswerItem } from "@/lib/pipeline/types";
import { localName } from "./entity-link";

export type Cell = AnswerItem | null;
export type SortState = { column: number; dir: "asc" | "desc" } | null;

const XSD = "http://www.w3.org/2001/XMLSchema#";
const NUMERIC_TYPES = new Set(
  ["integer", "decimal", "float", "double", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger", "negativeInteger", "nonPositiveInteger", "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte"].map(
    (t) => XSD + t,
  ),
);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** What a cell shows: an entity's label (else its local name), a literal's value; "" when unbound. */
export function cellText(cell: Cell): string {
  if (!cell) return "";
  return cell.type === "uri" ? cell.label || localName(cell.value) : cell.value;
}

/** A literal typed as a number (shown right-aligned, sorted by value). */
export function isNumericCell(cell: Cell): boolean {
  return !!cell && cell.type === "literal" && !!cell.datatype && NUMERIC_TYPES.has(cell.datatype);
}

/** A typed literal other than a string (a date, a number, a boolean): short text that should not wrap. */
export function isTypedValueCell(cell: Cell): boolean {
  return !!cell && cell.type === "literal" && !!cell.datatype && cell.datatype !== `${XSD}string` && !cell.datatype.endsWith("#langString");
}

function numberOf(cell: Cell): number | undefined {
  if (!cell || cell.type !== "literal") return undefined;
  const t = cell.value.trim();
  if (!NUMBER.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/** Compares two cells: numbers by value, else the shown text (numeric-aware); unbound cells last. */
export function compareCells(a: Cell, b: Cell): number {
  if (!a || !b) return !a && !b ? 0 : !a ? 1 : -1;
  const x = numberOf(a);
  const y = numberOf(b);
  if (x !== undefined && y !== undefined) return x - y;
  return cellText(a).localeCompare(cellText(b), undefined, { numeric: true, sensitivity: "base" });
}

/** Row indexes in display order: the query's order, or sorted by one column (stable; unbound cells last both ways). */
export function sortedOrder(rows: Cell[][], sort: SortState): number[] {
  const order = rows.map((_, i) => i);
  if (!sort) return order;
  const sign = sort.dir === "asc" ? 1 : -1;
  return order.sort((i, j) => {
    const a = rows[i][sort.column];
    const b = rows[j][sort.column];
    if (!a || !b) return !a && !b ? i - j : !a ? 1 : -1;
    return sign * compareCells(a, b) || i - j;
  });
}

/** The next state of a column's sort button: ascending, then descending, then the query's order. */
export function nextSort(current: SortState, column: number): SortState {
  if (!current || current.column !== column) return { column, dir: "asc" };
  return current.dir === "asc" ? { column, dir: "desc" } : null;
}

// why: KG text is untrusted; a cell starting like a formula must not run when pasted into a spreadsheet
const FORMULA_START = /^[=@\t\r]|^[+-](?![\d.]+$)/;
const safeCell = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/**
 * The table as CSV (RFC 4180 quoting) or TSV (tabs and line breaks in cells become spaces), rows in display order.
 * Each column holding entities gets a companion "<column> IRI" column, so the copy keeps what the labels stand for.
 */
export function tableText(columns: string[], rows: Cell[][], format: "csv" | "tsv"): string {
  const withIri = columns.map((_, c) => rows.some((r) => r[c]?.type === "uri"));
  const header = columns.flatMap((name, c) => (withIri[c] ? [name, `${name} IRI`] : [name]));
  const lines = [header, ...rows.map((r) => columns.flatMap((_, c) => (withIri[c] ? [cellText(r[c]), r[c]?.type === "uri" ? r[c]!.value : ""] : [cellText(r[c])])))];
  const field =
    format === "csv"
      ? (s: string) => {
          const v = safeCell(s);
          return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
        }
      : (s: string) => safeCell(s).replace(/[\t\r\n]+/g, " ");
  return lines.map((l) => l.map(field).join(format === "csv" ? "," : "\t")).join(format === "csv" ? "\r\n" : "\n");
}
