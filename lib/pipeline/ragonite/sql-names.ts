// SQL-safe identifiers for induced tables and columns: lower snake case from a label or local name, ASCII only,
// never a keyword, unique within their scope. KG labels are untrusted: nothing of them reaches SQL unquoted otherwise.

// DuckDB's reserved, type-function and column-name keywords (duckdb_keywords(), 1.5): unusable as bare identifiers.
const KEYWORDS = new Set(
  (
    "all analyse analyze and anti any array as asc asof asymmetric at authorization between bigint binary bit boolean both by " +
    "case cast char character check coalesce collate collation column columns concurrently constraint create cross dec decimal " +
    "default deferrable desc describe distinct do else end except exists extract false fetch float for foreign freeze from full " +
    "generated glob group grouping grouping_id having ilike in initially inner inout int integer intersect interval into is " +
    "isnull join lambda lateral leading left like limit map national natural nchar none not notnull null nullif numeric offset " +
    "on only or order out outer overlaps overlay pivot pivot_longer pivot_wider placing position positional precision primary " +
    "qualify real references returning right row select semi setof show similar smallint some struct substring summarize " +
    "symmetric table tablesample then time timestamp to trailing treat trim true try_cast union unique unpack unpivot using " +
    "values varchar variadic verbose when where window with"
  ).split(" "),
);

/** Longest identifier we produce (DuckDB allows more; long names only cost prompt tokens). */
export const MAX_NAME = 48;

/** "Bill of Material" → "bill_of_material", "hasSupplier" → "has_supplier", "Größe (mm)" → "grosse_mm"; "" → fallback. */
export function sqlName(text: string, fallback = "x"): string {
  let name = text
    .replace(/ß/g, "ss")
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .slice(0, MAX_NAME)
    .replace(/_+$/, "");
  if (!name) name = fallback;
  if (/^[0-9]/.test(name)) name = `n_${name}`;
  if (KEYWORDS.has(name)) name = `${name}_`;
  return name;
}

/** Hands out unique names within one scope (a database's tables, a table's columns); `taken` are reserved up front. */
export function nameAllocator(taken: Iterable<string> = []): (wanted: string) => string {
  const used = new Set(taken);
  return (wanted) => {
    let name = wanted;
    for (let i = 2; used.has(name); i++) name = `${wanted.slice(0, MAX_NAME - String(i).length - 1)}_${i}`;
    used.add(name);
    return name;
  };
}

/** A comment as a SQL string literal (single quotes doubled; control characters flattened). */
export function sqlString(text: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed here
  return `'${text.replace(/[\u0000-\u001f]+/g, " ").replace(/'/g, "''")}'`;
}
