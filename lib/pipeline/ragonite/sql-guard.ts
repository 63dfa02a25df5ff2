// Only a single SELECT runs on the induced database: the SQL is parsed by DuckDB itself (json_serialize_sql, which
// serializes SELECT statements only) before it runs, on a connection that is read-only with file access disabled.
import { AppError } from "@/lib/errors";

/** Longest SQL accepted (a model's query; anything longer is a runaway). */
export const MAX_SQL_CHARS = 20_000;

const AGGREGATES = new Set(["count", "count_star", "sum", "avg", "mean", "min", "max", "median", "mode", "string_agg", "list", "array_agg", "stddev", "stddev_samp", "stddev_pop", "variance", "var_samp", "var_pop", "arg_max", "arg_min", "approx_count_distinct", "bool_and", "bool_or", "first", "last", "any_value", "product", "quantile", "quantile_cont", "quantile_disc"]);

export interface GuardedSql {
  /** the query as it runs: trimmed, without a trailing semicolon */
  sql: string;
  /** the top-level SELECT list computes an aggregate (a single numeric value is then a count, not an item) */
  aggregate: boolean;
}

interface Serialized {
  error?: boolean;
  error_type?: string;
  error_message?: string;
  position?: string;
  statements?: { node?: { type?: string; select_list?: { class?: string; function_name?: string }[] } }[];
}

/** Line and column (1-based) of a character offset, for error messages. */
function locate(sql: string, offset: number): { line: number; column: number } {
  const before = sql.slice(0, Math.max(0, offset));
  const lines = before.split("\n");
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** Trims the text and strips trailing semicolons; refuses empty or oversized input before any parsing. */
export function normalizeSql(sql: string): string {
  const text = sql.replace(/^\s+|[\s;]+$/g, "");
  if (!text) throw new AppError("sql_syntax", "The SQL query is empty.");
  if (text.length > MAX_SQL_CHARS) throw new AppError("sql_forbidden", `The SQL query is longer than ${MAX_SQL_CHARS} characters.`);
  return text;
}

/**
 * Checks DuckDB's serialization of the query: a syntax error names its position, anything but one SELECT statement
 * (DDL, DML, PRAGMA, SET, ATTACH, COPY, INSTALL, several statements) is refused.
 */
export function checkSerialized(sql: string, json: string): GuardedSql {
  let parsed: Serialized;
  try {
    parsed = JSON.parse(json) as Serialized;
  } catch {
    throw new AppError("internal", "DuckDB returned an unreadable parse of the query.");
  }
  if (parsed.error) {
    const msg = parsed.error_message ?? "the query could not be parsed";
    if (/only select statements/i.test(msg)) throw new AppError("sql_forbidden", "Only a single SELECT query may run (no DDL, updates, PRAGMA, SET, ATTACH, COPY or INSTALL).");
    const at = parsed.position !== undefined && Number.isFinite(Number(parsed.position)) ? locate(sql, Number(parsed.position)) : undefined;
    throw new AppError("sql_syntax", `SQL syntax error: ${msg}`, at ? { where: { source: "sql", ...at } } : {});
  }
  const statements = parsed.statements ?? [];
  if (statements.length !== 1) throw new AppError("sql_forbidden", `Exactly one SELECT statement may run; got ${statements.length}.`);
  const node = statements[0].node;
  const aggregate = (node?.select_list ?? []).some((e) => e.class === "FUNCTION" && AGGREGATES.has((e.function_name ?? "").toLowerCase()));
  return { sql, aggregate };
}
