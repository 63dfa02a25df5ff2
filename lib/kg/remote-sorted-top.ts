// Virtuoso refuses a sorted SELECT whose OFFSET + LIMIT exceeds its sorted-TOP cap (MaxSortedTopRows, 10,000 by
// default) with "SR353: Sorted TOP clause specifies more then N rows to sort. Only M are allowed." A caller's row cap
// (the app's 1,000 or an evaluation's 1,000,000) should not turn into a failed query: the remote KG learns the cap from
// that error, runs the query with the LIMIT lowered to it, and marks the result as cut when it came back full.
import type sparqljs from "sparqljs";
import { stringifySparql } from "./sparql-syntax";
import { isAppError } from "@/lib/errors";

const SR353 = /SR353\b[^]*?Only (\d+) (?:are|is) allowed/i;

/** The endpoint's sorted-TOP cap named by an SR353 refusal, or undefined for any other error. */
export function sortedTopCapOf(e: unknown): number | undefined {
  if (!isAppError(e) || e.code !== "kg_http") return undefined;
  const snippet = typeof e.details?.snippet === "string" ? e.details.snippet : "";
  const m = SR353.exec(`${e.message} ${snippet}`);
  const cap = m ? Number(m[1]) : NaN;
  return Number.isInteger(cap) && cap > 0 ? cap : undefined;
}

/**
 * The query with its top-level LIMIT lowered so OFFSET + LIMIT fits `cap`, and that LIMIT; undefined when the query
 * is not a sorted SELECT above the cap (or its OFFSET alone reaches it: no lower LIMIT helps then).
 */
export function limitedToSortedTop(ast: sparqljs.SparqlQuery, cap: number): { query: string; limit: number } | undefined {
  if (ast.type !== "query" || ast.queryType !== "SELECT" || !ast.order?.length || ast.limit === undefined) return undefined;
  const offset = ast.offset ?? 0;
  if (offset >= cap) return undefined;
  const limit = cap - offset;
  if (ast.limit <= limit) return undefined;
  return { query: stringifySparql({ ...ast, limit }), limit };
}
