// A result as a file: SPARQL 1.1 Query Results CSV (plain values) and TSV (RDF terms), SPARQL 1.1 Query Results
// JSON, and N-Triples for CONSTRUCT/DESCRIBE. Columns in the order the panel shows them.
import type { QueryResult, Term } from "@/lib/kg/types";

export type ResultFormat = "csv" | "tsv" | "json" | "nt";

export interface ResultFile {
  name: string;
  mime: string;
  text: string;
}

const XSD_STRING = "http://www.w3.org/2001/XMLSchema#string";

function csvField(v: string): string {
  return /[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

function csvValue(t: Term | undefined): string {
  if (!t) return "";
  return t.type === "bnode" ? `_:${t.value}` : t.value;
}

function escapeString(v: string): string {
  return v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
}

/** A term in N-Triples/Turtle syntax (what TSV results and N-Triples use). */
export function termText(t: Term | undefined): string {
  if (!t) return "";
  if (t.type === "uri") return `<${t.value}>`;
  if (t.type === "bnode") return `_:${t.value}`;
  const s = `"${escapeString(t.value)}"`;
  if (t["xml:lang"]) return `${s}@${t["xml:lang"]}`;
  return t.datatype && t.datatype !== XSD_STRING ? `${s}^^<${t.datatype}>` : s;
}

/** The columns and rows of a result (graphs as subject, predicate, object). */
export function tabular(result: QueryResult, vars?: string[]): { vars: string[]; rows: Record<string, Term | undefined>[] } {
  if (result.kind === "SELECT") return { vars: vars ?? result.head.vars, rows: result.results.bindings };
  if (result.kind === "ASK") return { vars: ["boolean"], rows: [{ boolean: { type: "literal", value: String(result.boolean), datatype: "http://www.w3.org/2001/XMLSchema#boolean" } }] };
  return { vars: ["subject", "predicate", "object"], rows: result.triples.map((t) => ({ subject: t.subject, predicate: t.predicate, object: t.object })) };
}

export function resultFile(result: QueryResult, format: ResultFormat, base = "query-result"): ResultFile {
  const { vars, rows } = tabular(result);
  switch (format) {
    case "csv":
      return { name: `${base}.csv`, mime: "text/csv", text: [vars.map(csvField).join(","), ...rows.map((r) => vars.map((v) => csvField(csvValue(r[v]))).join(","))].join("\r\n") + "\r\n" };
    case "tsv":
      return { name: `${base}.tsv`, mime: "text/tab-separated-values", text: [vars.map((v) => `?${v}`).join("\t"), ...rows.map((r) => vars.map((v) => termText(r[v])).join("\t"))].join("\n") + "\n" };
    case "json": {
      const body =
        result.kind === "ASK" ? { head: {}, boolean: result.boolean } : { head: { vars }, results: { bindings: rows.map((r) => Object.fromEntries(vars.flatMap((v) => (r[v] ? [[v, r[v]]] : [])))) } };
      return { name: `${base}.srj`, mime: "application/sparql-results+json", text: JSON.stringify(body, null, 2) };
    }
    case "nt":
      return { name: `${base}.nt`, mime: "application/n-triples", text: rows.map((r) => `${termText(r.subject)} ${termText(r.predicate)} ${termText(r.object)} .`).join("\n") + "\n" };
  }
}

/** The formats a result can be saved as. */
export function formatsFor(result: QueryResult): ResultFormat[] {
  if (result.kind === "SELECT") return ["csv", "tsv", "json"];
  if (result.kind === "ASK") return ["json"];
  return ["nt", "csv", "tsv"];
}
