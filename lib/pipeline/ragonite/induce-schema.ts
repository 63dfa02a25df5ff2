// Database induction (RAGONITE §2.1), the pure part: from the KG's facts to tables and columns. A table per class
// (one row per subject of that type; a subject of several types has a row in each), a column per single-valued
// predicate with an inferred SQL type (literals) or the related entity's IRI (object properties, "foreign keys"),
// a link table per predicate some subject has several values for; untyped subjects go to one extra table.
import type { Term } from "@/lib/kg/types";
import { resourceKey, type KgFacts } from "./kg-facts";
import { nameAllocator, sqlName } from "./sql-names";

export type SqlType = "BIGINT" | "DOUBLE" | "DATE" | "TIMESTAMP" | "BOOLEAN" | "VARCHAR";

export interface InducedColumn {
  name: string;
  predicate: string;
  /** the predicate's label (or its local name in words) */
  label: string;
  /** literal values; IRIs of related entities; or both (stored as text) */
  kind: "literal" | "ref" | "mixed";
  type: SqlType;
  /** tables holding the entities this column refers to (kind ref/mixed) */
  refTables: string[];
  /** language tags seen on its literals */
  langs: string[];
  comment: string;
}

export interface InducedLinkTable {
  name: string;
  /** the table whose rows own the values (joined on iri) */
  owner: string;
  /** the value column, named "value" */
  column: InducedColumn;
  /** a "lang" column holds each value's language tag */
  hasLang: boolean;
  comment: string;
}

export interface InducedTable {
  name: string;
  /** the class; null for the table of untyped subjects */
  classIri: string | null;
  label: string;
  comment: string;
  /** single-valued predicates (besides iri and label) */
  columns: InducedColumn[];
  /** the label predicate the label column holds verbatim for every row (so it has no column of its own) */
  labelFrom?: string;
  /** predicates with several values for some subject */
  links: InducedLinkTable[];
  /** subject keys, one row each */
  subjects: string[];
}

export interface InducedSchema {
  tables: InducedTable[];
  /** class IRI → table name */
  tableOfClass: Map<string, string>;
}

/** Columns every table has before its predicate columns. */
export const KEY_COLUMN = "iri";
export const LABEL_COLUMN = "label";
export const UNTYPED_TABLE = "untyped_resource";

const XSD = "http://www.w3.org/2001/XMLSchema#";
const INTEGER_TYPES = new Set(
  ["integer", "int", "long", "short", "byte", "nonNegativeInteger", "positiveInteger", "nonPositiveInteger", "negativeInteger", "unsignedInt", "unsignedLong", "unsignedShort", "unsignedByte", "gYear"].map((t) => XSD + t),
);
// no leading zeros: "0042" is an identifier, not a number
const INTEGER = /^[+-]?(0|[1-9]\d{0,17})$/;
const NUMBER = /^[+-]?(0|[1-9]\d*)?(\.\d+)?([eE][+-]?\d+)?$/;
const DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const TIMESTAMP = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])[T ]([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d{1,6})?$/;

/** A real calendar day (JS rolls 2001-02-30 over to March; DuckDB refuses it). */
function isCalendarDate(text: string): boolean {
  const d = new Date(`${text.slice(0, 10)}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text.slice(0, 10);
}

/** The narrowest SQL type all these literal values fit, by datatype and lexical form. */
export function inferSqlType(values: Term[]): SqlType {
  let int = true;
  let num = true;
  let date = true;
  let ts = true;
  let bool = true;
  for (const v of values) {
    if (v.type !== "literal" || v["xml:lang"]) return "VARCHAR";
    const text = v.value;
    const dt = v.datatype ?? "";
    if (int && !(INTEGER.test(text) && (dt === "" || dt === `${XSD}string` || INTEGER_TYPES.has(dt) || dt === `${XSD}decimal`))) int = false;
    if (num && !(NUMBER.test(text) && /\d/.test(text) && !/^[+-]?0\d/.test(text))) num = false;
    if (date && !(DATE.test(text) && isCalendarDate(text))) date = false;
    if (ts && !(TIMESTAMP.test(text) && isCalendarDate(text))) ts = false;
    if (bool && !(text === "true" || text === "false" || (dt === `${XSD}boolean` && (text === "1" || text === "0")))) bool = false;
    if (!int && !num && !date && !ts && !bool) return "VARCHAR";
  }
  if (values.length === 0) return "VARCHAR";
  if (int) return "BIGINT";
  if (num) return "DOUBLE";
  if (date) return "DATE";
  if (ts) return "TIMESTAMP";
  if (bool) return "BOOLEAN";
  return "VARCHAR";
}

const SQL_TYPE_WORD: Record<SqlType, string> = { BIGINT: "integer", DOUBLE: "number", DATE: "date", TIMESTAMP: "date and time", BOOLEAN: "true/false", VARCHAR: "text" };

function clip(text: string, max = 80): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

interface PredicateStats {
  predicate: string;
  values: Term[];
  maxPerSubject: number;
  refs: number;
  literals: number;
  targetTables: Map<string, number>;
}

/** Induces the schema from indexed facts. Deterministic: the same facts give the same names. */
export function induceSchema(facts: KgFacts): InducedSchema {
  // classes by instance count (largest first), so the most used classes get the plainest names
  const members = new Map<string, string[]>();
  const untyped: string[] = [];
  for (const subject of facts.bySubject.keys()) {
    const classes = facts.types.get(subject);
    if (!classes?.length) untyped.push(subject);
    else for (const c of new Set(classes)) (members.get(c) ?? members.set(c, []).get(c)!).push(subject);
  }
  const classes = [...members.keys()].sort((a, b) => members.get(b)!.length - members.get(a)!.length || a.localeCompare(b));
  const allocateTable = nameAllocator();
  const tableOfClass = new Map<string, string>();
  for (const c of classes) tableOfClass.set(c, allocateTable(sqlName(facts.label(c), "class")));
  const untypedName = untyped.length ? allocateTable(UNTYPED_TABLE) : undefined;

  const tablesOf = (key: string): string[] => {
    const cs = facts.types.get(key);
    if (cs?.length) return [...new Set(cs)].map((c) => tableOfClass.get(c)!);
    return facts.bySubject.has(key) && untypedName ? [untypedName] : [];
  };

  const build = (name: string, classIri: string | null, subjects: string[]): InducedTable => {
    const stats = new Map<string, PredicateStats>();
    for (const s of subjects) {
      const perPredicate = new Map<string, number>();
      for (const t of facts.bySubject.get(s) ?? []) {
        // type triples are the table membership itself
        if (facts.typePredicates.has(t.p) && t.o.type === "uri") continue;
        let st = stats.get(t.p);
        if (!st) stats.set(t.p, (st = { predicate: t.p, values: [], maxPerSubject: 0, refs: 0, literals: 0, targetTables: new Map() }));
        st.values.push(t.o);
        const n = (perPredicate.get(t.p) ?? 0) + 1;
        perPredicate.set(t.p, n);
        if (n > st.maxPerSubject) st.maxPerSubject = n;
        const key = resourceKey(t.o);
        if (key) {
          st.refs++;
          for (const table of tablesOf(key)) st.targetTables.set(table, (st.targetTables.get(table) ?? 0) + 1);
        } else st.literals++;
      }
    }
    const label = classIri ? facts.label(classIri) : "subjects without a type";
    const allocateColumn = nameAllocator([KEY_COLUMN, LABEL_COLUMN]);
    const columns: InducedColumn[] = [];
    const links: InducedLinkTable[] = [];
    // a label predicate with exactly one value per row, equal to the preferred label, is the label column itself
    let labelFrom: string | undefined;
    for (const p of facts.labelPredicates) {
      const st = stats.get(p);
      if (labelFrom || !st || st.maxPerSubject !== 1 || st.refs > 0 || st.values.length !== subjects.length) continue;
      const same = subjects.every((s) => {
        const v = (facts.bySubject.get(s) ?? []).find((t) => t.p === p)?.o;
        return v?.type === "literal" && !v["xml:lang"] && v.value === facts.label(s);
      });
      if (same) {
        labelFrom = p;
        stats.delete(p);
      }
    }
    // predicates by use (most used first) so frequent ones keep the plain names
    for (const st of [...stats.values()].sort((a, b) => b.values.length - a.values.length || a.predicate.localeCompare(b.predicate))) {
      const predLabel = facts.label(st.predicate);
      const kind: InducedColumn["kind"] = st.refs === 0 ? "literal" : st.literals === 0 ? "ref" : "mixed";
      const type: SqlType = kind === "literal" ? inferSqlType(st.values) : "VARCHAR";
      const refTables = [...st.targetTables.entries()].sort((a, b) => b[1] - a[1]).map(([t]) => t);
      const langs = [...new Set(st.values.flatMap((v) => (v.type === "literal" && v["xml:lang"] ? [v["xml:lang"]] : [])))].sort();
      const colName = allocateColumn(sqlName(predLabel, "p"));
      const what =
        kind === "ref" ? `IRI of the related entity${refTables.length ? `; join ${refTables.slice(0, 4).map((t) => `${t}.${KEY_COLUMN}`).join(" or ")}` : ""}`
        : kind === "mixed" ? `IRIs of related entities or literal values, as text${refTables.length ? `; IRIs join ${refTables.slice(0, 3).map((t) => `${t}.${KEY_COLUMN}`).join(" or ")}` : ""}`
        : `${SQL_TYPE_WORD[type]}${langs.length ? `, language ${langs.slice(0, 6).join("/")}` : ""}`;
      const comment = `<${st.predicate}> "${clip(predLabel, 60)}": ${what}`;
      const column: InducedColumn = { name: colName, predicate: st.predicate, label: predLabel, kind, type, refTables, langs, comment };
      if (st.maxPerSubject <= 1) {
        columns.push(column);
      } else {
        const linkName = allocateTable(`${name}_${colName}`.slice(0, 60));
        const hasLang = langs.length > 0;
        links.push({
          name: linkName,
          owner: name,
          column: { ...column, name: "value" },
          hasLang,
          comment: `several values per ${name} row: <${st.predicate}> "${clip(predLabel, 60)}"; join ${linkName}.${KEY_COLUMN} = ${name}.${KEY_COLUMN}`,
        });
      }
    }
    const comment = classIri ? `one row per entity of type <${classIri}> "${clip(label, 60)}" (${subjects.length} rows)` : `one row per subject that has no type (${subjects.length} rows)`;
    return { name, classIri, label, comment, columns, links, subjects, ...(labelFrom ? { labelFrom } : {}) };
  };

  const tables = classes.map((c) => build(tableOfClass.get(c)!, c, members.get(c)!));
  if (untypedName) tables.push(build(untypedName, null, untyped));
  return { tables, tableOfClass };
}

/** The label column's comment: which predicate it holds, when it is one predicate's values verbatim. */
export function labelComment(t: Pick<InducedTable, "labelFrom">): string {
  return t.labelFrom ? `<${t.labelFrom}>: the entity's label (name)` : "its preferred label (name), from the KG's label predicates";
}

/** The schema as the LLM reads it: CREATE TABLE statements with a comment per column (RAGONITE §2.1). */
export function schemaDdl(schema: InducedSchema, options: { maxChars?: number } = {}): string {
  const parts: string[] = [];
  let size = 0;
  let omitted = 0;
  for (const t of schema.tables) {
    const lines = [`-- ${t.comment}`, `CREATE TABLE ${t.name} (`];
    const cols = [
      `  ${KEY_COLUMN} VARCHAR PRIMARY KEY, -- the entity's IRI`,
      `  ${LABEL_COLUMN} VARCHAR, -- ${labelComment(t)}`,
      ...t.columns.map((c) => `  ${c.name} ${c.type}, -- ${c.comment}`),
    ];
    cols[cols.length - 1] = cols[cols.length - 1].replace(/, -- /, " -- ");
    lines.push(...cols, ");");
    for (const l of t.links) {
      lines.push(`-- ${l.comment}`, `CREATE TABLE ${l.name} (`, `  ${KEY_COLUMN} VARCHAR, -- ${l.owner}.${KEY_COLUMN}`);
      lines.push(`  value ${l.column.type}${l.hasLang ? "," : ""} -- ${l.column.comment}`);
      if (l.hasLang) lines.push("  lang VARCHAR -- language tag of the value ('' when none)");
      lines.push(");");
    }
    const block = lines.join("\n");
    if (options.maxChars !== undefined && size + block.length > options.maxChars) {
      omitted++;
      continue;
    }
    size += block.length + 1;
    parts.push(block);
  }
  if (omitted) parts.push(`-- ${omitted} more table(s) not shown (the schema is too long for one prompt)`);
  return parts.join("\n\n");
}
