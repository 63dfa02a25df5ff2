// Prepares a model-written query to run: the summary's prefixes declared, the read-only guard (sparqljs), SELECT or ASK
// only, no SERVICE, and a row cap written into the query; a refusal says why, with line and column for syntax errors.
import { stringifySparql } from "@/lib/kg/sparql-syntax";
import type * as Sparql from "sparqljs";
import { isAppError } from "@/lib/errors";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import { completePrefixes } from "@/lib/pipeline/common/prefixes";

export type Prepared =
  | {
      ok: true;
      /** the query as it runs (row cap written in) */
      sparql: string;
      /** the query as written, with the missing prefixes (schema and well-known) declared: what the user is shown and can re-run */
      written: string;
      ast: Sparql.SelectQuery | Sparql.AskQuery;
      kind: "SELECT" | "ASK";
      capped: boolean;
    }
  | { ok: false; reason: string };

/** `limit`: a SELECT without a LIMIT (or with a larger one) runs with LIMIT `limit` (`capped` says so). */
export function prepareQuery(text: string, prefixes: Record<string, string>, limit: number): Prepared {
  const body = text.replace(/^\s*```[a-zA-Z]*\s*\n?|```\s*$/g, "").trim();
  if (!body) return { ok: false, reason: "the query is empty" };
  const query = completePrefixes(body, prefixes);
  let parsed;
  try {
    parsed = parseReadOnly(query);
  } catch (e) {
    if (!isAppError(e)) throw e;
    const expected = Array.isArray(e.details?.expected) ? ` Expected one of: ${(e.details.expected as string[]).join(", ")}.` : "";
    // the line numbers of the query as the model wrote it, not counting the PREFIX lines added above it
    const added = query.split("\n").length - body.split("\n").length;
    const message = e.message.replace(/\bat line (\d+)/, (m, line: string) => (Number(line) > added ? `at line ${Number(line) - added}` : m));
    return { ok: false, reason: `${message}${expected}` };
  }
  if (parsed.kind !== "SELECT" && parsed.kind !== "ASK") return { ok: false, reason: `${parsed.kind} returns triples, not an answer: write a SELECT or an ASK query` };
  if (parsed.serviceIris.length) return { ok: false, reason: "SERVICE clauses (queries to other endpoints) are not allowed" };
  // what runs is regenerated from the parse tree: it spells out the grouping of chained operators, which the embedded
  // store (oxigraph 0.5) otherwise evaluates right to left (10 - 2 - 3 = 11 there)
  if (parsed.kind === "ASK") return { ok: true, sparql: stringifySparql(parsed.ast), written: parsed.query, ast: parsed.ast as Sparql.AskQuery, kind: "ASK", capped: false };
  const ast = parsed.ast as Sparql.SelectQuery;
  const capped = ast.limit === undefined || ast.limit > limit;
  return { ok: true, sparql: stringifySparql(capped ? { ...ast, limit } : ast), written: parsed.query, ast, kind: "SELECT", capped };
}
