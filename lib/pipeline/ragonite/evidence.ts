// The evidence a RAGONITE turn gathers: SQL results over the induced database ("S1", rows "S1.3") and passages of
// verbalized facts ("P12"); how the models see them, and how SQL cells become KG terms again.
import type { Bindings, QueryResult, Term } from "@/lib/kg/types";
import type { Citation } from "@/lib/pipeline/types";
import type { SqlResult } from "./induced-db";
import type { Passage } from "./verbalize";

export interface SqlEvidence {
  /** "S1", "S2", … in the order the queries ran */
  id: string;
  round: number;
  sql: string;
  result?: SqlResult;
  error?: string;
}

export interface SearchEvidence {
  round: number;
  query: string;
  /** passage ids in rank order */
  hits: string[];
  /** set when this search was run for the agent (it never searched), not by it */
  automatic?: boolean;
}

export interface Evidence {
  sql: SqlEvidence[];
  searches: SearchEvidence[];
  /** every passage any search returned, by id */
  passages: Map<string, Passage>;
}

export const emptyEvidence = (): Evidence => ({ sql: [], searches: [], passages: new Map() });

const XSD = "http://www.w3.org/2001/XMLSchema#";
/** Cells shown to a model per SQL result (the answer itself uses every row). */
export const ROWS_SHOWN = 30;
const CELL_CHARS = 200;

function cellText(v: unknown): string {
  if (v === null || v === undefined) return "NULL";
  const s = typeof v === "string" ? v : JSON.stringify(v);
  return s.length > CELL_CHARS ? `${s.slice(0, CELL_CHARS - 1)}…` : s;
}

/** An SQL result as the models read it: columns, then numbered rows "S1.1: a | b". */
export function renderSql(e: SqlEvidence, rowsShown = ROWS_SHOWN): string {
  if (e.error) return `[${e.id}] ${e.sql}\nERROR: ${e.error}`;
  const r = e.result!;
  const lines = [`[${e.id}] ${e.sql}`, `columns: ${r.columns.join(" | ")}`];
  r.rows.slice(0, rowsShown).forEach((row, i) => lines.push(`${e.id}.${i + 1}: ${row.map(cellText).join(" | ")}`));
  const more = r.rows.length - Math.min(rowsShown, r.rows.length);
  if (r.rows.length === 0) lines.push("(no rows)");
  else if (more > 0 || r.truncated) lines.push(`(${r.rows.length}${r.truncated ? "+" : ""} rows; ${Math.min(rowsShown, r.rows.length)} shown)`);
  return lines.join("\n");
}

export function renderPassage(p: Passage): string {
  return `[${p.id}] ${p.text}`;
}

/** One DuckDB cell as a KG term: IRIs the database holds come back as IRIs; numbers and dates get their XSD type. */
export function cellTerm(value: unknown, duckType: string, isResource: (key: string) => boolean): Term | null {
  if (value === null || value === undefined) return null;
  const t = duckType.toUpperCase();
  if (typeof value === "string") {
    if (value.startsWith("_:")) return { type: "bnode", value: value.slice(2) };
    if (/^(VARCHAR|TEXT|STRING)$/.test(t) && isResource(value)) return { type: "uri", value };
  }
  const text = typeof value === "string" ? value : typeof value === "number" || typeof value === "boolean" ? String(value) : JSON.stringify(value);
  if (/^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT)$/.test(t)) return { type: "literal", value: text, datatype: `${XSD}integer` };
  if (/^(DOUBLE|FLOAT|REAL)$/.test(t)) return { type: "literal", value: text, datatype: `${XSD}double` };
  if (t.startsWith("DECIMAL")) return { type: "literal", value: text, datatype: `${XSD}decimal` };
  if (t === "DATE") return { type: "literal", value: text, datatype: `${XSD}date` };
  if (t.startsWith("TIMESTAMP")) return { type: "literal", value: text.replace(" ", "T"), datatype: `${XSD}dateTime` };
  if (t === "BOOLEAN") return { type: "literal", value: text, datatype: `${XSD}boolean` };
  return { type: "literal", value: text };
}

/** An SQL result as a SPARQL-JSON SELECT result, so the shared answer converter turns it into items, a table or a count. */
export function sqlAsSelect(result: SqlResult, isResource: (key: string) => boolean): Extract<QueryResult, { kind: "SELECT" }> {
  // SPARQL variable names must be unique and simple; SQL column names may repeat or hold spaces
  const used = new Set<string>();
  const vars = result.columns.map((c, i) => {
    let v = c.replace(/[^A-Za-z0-9_]+/g, "_").replace(/^_+|_+$/g, "") || `col${i + 1}`;
    if (/^[0-9]/.test(v)) v = `c${v}`;
    while (used.has(v)) v = `${v}_${i + 1}`;
    used.add(v);
    return v;
  });
  const bindings: Bindings[] = result.rows.map((row) => {
    const b: Bindings = {};
    row.forEach((cell, i) => {
      const term = cellTerm(cell, result.types[i] ?? "VARCHAR", isResource);
      if (term) b[vars[i]] = term;
    });
    return b;
  });
  return { kind: "SELECT", head: { vars }, results: { bindings } };
}

/** The IRIs among a row's cells (what a row citation links to). */
export function rowIris(row: unknown[], isResource: (key: string) => boolean): string[] {
  return row.flatMap((c) => (typeof c === "string" && !c.startsWith("_:") && isResource(c) ? [c] : []));
}

/** Citation of a whole SQL result. */
export function sqlCitation(e: SqlEvidence, isResource: (key: string) => boolean): Citation {
  const rows = e.result?.rows ?? [];
  return { id: e.id, kind: "sql", query: e.sql, text: renderSql(e, 10).replace(/^\[S\d+\] /, ""), iris: [...new Set(rows.flatMap((r) => rowIris(r, isResource)))].slice(0, 50) };
}

/** Citation of one row (1-based) of an SQL result. */
export function rowCitation(e: SqlEvidence, row: number, isResource: (key: string) => boolean): Citation {
  const cells = e.result!.rows[row - 1];
  const text = e.result!.columns.map((c, i) => `${c} = ${cellText(cells[i])}`).join(", ");
  return { id: `${e.id}.${row}`, kind: "sql-row", query: e.sql, text, iris: rowIris(cells, isResource) };
}

export function passageCitation(p: Passage): Citation {
  return { id: p.id, kind: "passage", text: p.text, iris: p.subject.startsWith("_:") ? [] : [p.subject] };
}
