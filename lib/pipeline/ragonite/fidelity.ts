// Round-trip check of database induction: every triple whose subject has a type must be found again in the database
// (type triples as the subject's row in its class table, others as a column value or a link-table row).
import type { KgFacts } from "./kg-facts";
import { resourceKey } from "./kg-facts";
import type { InducedSchema, SqlType } from "./induce-schema";
import type { SqlDatabase } from "./induced-db";

export interface FidelityReport {
  /** triples whose subject has a type */
  total: number;
  represented: number;
  /** up to 20 triples that were not found, as text */
  missing: string[];
}

/** Canonical text of a KG literal as the column type stores it. */
function canonicalLexical(type: SqlType, lexical: string): string {
  switch (type) {
    case "BIGINT":
      return BigInt(lexical.replace(/^\+/, "")).toString();
    case "DOUBLE":
      return String(Number(lexical));
    case "TIMESTAMP":
      return lexical.replace("T", " ");
    case "BOOLEAN":
      return lexical === "true" || lexical === "1" ? "true" : "false";
    default:
      return lexical;
  }
}

function canonicalCell(type: SqlType, cell: unknown): string {
  if (type === "DOUBLE") return String(Number(cell));
  return String(cell);
}

export async function checkFidelity(facts: KgFacts, schema: InducedSchema, db: SqlDatabase): Promise<FidelityReport> {
  const big = { maxRows: 100_000_000, timeoutMs: 600_000 };
  // (table, subject) → row cells by predicate; link tables: predicate → subject → values
  const cells = new Map<string, Map<string, Map<string, string>>>();
  const linkValues = new Map<string, Map<string, Set<string>>>();
  const rowsOf = new Map<string, Set<string>>();
  for (const table of schema.tables) {
    const r = await db.query(`SELECT * FROM ${table.name}`, big);
    const byCol = new Map(r.columns.map((c, i) => [c, i]));
    const perSubject = new Map<string, Map<string, string>>();
    rowsOf.set(table.name, new Set(r.rows.map((row) => String(row[0]))));
    for (const row of r.rows) {
      const m = new Map<string, string>();
      for (const c of table.columns) {
        const v = row[byCol.get(c.name)!];
        if (v !== null) m.set(c.predicate, canonicalCell(c.type, v));
      }
      if (table.labelFrom) m.set(table.labelFrom, String(row[byCol.get("label")!]));
      perSubject.set(String(row[0]), m);
    }
    cells.set(table.name, perSubject);
    for (const link of table.links) {
      const lr = await db.query(`SELECT ${"iri"}, value FROM ${link.name}`, big);
      const bySubject = linkValues.get(link.column.predicate + "\u0000" + table.name) ?? new Map<string, Set<string>>();
      for (const [s, v] of lr.rows) {
        const set = bySubject.get(String(s)) ?? new Set<string>();
        set.add(canonicalCell(link.column.type, v));
        bySubject.set(String(s), set);
      }
      linkValues.set(link.column.predicate + "\u0000" + table.name, bySubject);
    }
  }
  let total = 0;
  let represented = 0;
  const missing: string[] = [];
  for (const t of facts.triples) {
    const s = resourceKey(t.s);
    const classes = s ? facts.types.get(s) : undefined;
    if (!s || !classes?.length) continue;
    total++;
    let found = false;
    if (facts.typePredicates.has(t.p) && t.o.type === "uri") {
      const table = schema.tableOfClass.get(t.o.value);
      found = table !== undefined && rowsOf.get(table)?.has(s) === true;
    } else {
      for (const c of new Set(classes)) {
        const tableName = schema.tableOfClass.get(c)!;
        const table = schema.tables.find((x) => x.name === tableName)!;
        const col = table.columns.find((x) => x.predicate === t.p);
        const link = table.links.find((x) => x.column.predicate === t.p);
        const type = (col ?? link?.column)?.type ?? "VARCHAR";
        const want = resourceKey(t.o) ?? canonicalLexical(type, t.o.value);
        if ((col || table.labelFrom === t.p) && cells.get(tableName)?.get(s)?.get(t.p) === want) found = true;
        if (link && linkValues.get(t.p + "\u0000" + tableName)?.get(s)?.has(want)) found = true;
        if (found) break;
      }
    }
    if (found) represented++;
    else if (missing.length < 20) missing.push(`${s} ${t.p} ${resourceKey(t.o) ?? JSON.stringify(t.o.value)}`);
  }
  return { total, represented, missing };
}
