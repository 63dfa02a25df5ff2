// The SPARQL panel's query runner: read-only guard (well-known prefixes declared, the declared query returned), SERVICE
// policy, a row cap with a visible flag, labels for IRIs.
import "server-only";
import type sparqljs from "sparqljs";
import { stringifySparql } from "@/lib/kg/sparql-syntax";
import { AppError } from "@/lib/errors";
import { SPARQL_ROW_CAP, type SparqlResponse } from "@/lib/api/contract";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { KnowledgeGraph, QueryResult } from "@/lib/kg/types";
import { fetchLabels, irisOf } from "./labels";
import { projectionOrder } from "./sparql-assist/projection";

export interface ConsoleOptions {
  rowCap?: number;
  /** federated SERVICE clauses reach other servers from ours; off unless SPARQL_ALLOW_SERVICE=true */
  allowService?: boolean;
  timeoutMs?: number;
  signal?: AbortSignal;
  now?: () => number;
}

export function serviceAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return /^(1|true|yes|on)$/i.test(env.SPARQL_ALLOW_SERVICE?.trim() ?? "");
}

/**
 * The query with LIMIT lowered to cap+1 (one extra row tells us there was more), so a huge result is never built;
 * returned unchanged when its own LIMIT is already within the cap.
 */
export function capQuery(query: string, cap: number): string {
  const { kind, ast } = parseReadOnly(query);
  if (kind === "ASK") return query;
  const q = ast as sparqljs.SelectQuery;
  if (q.limit !== undefined && q.limit <= cap) return query;
  return stringifySparql({ ...q, limit: cap + 1 });
}

function truncate(result: QueryResult, cap: number): { result: QueryResult; truncated: boolean } {
  if (result.kind === "SELECT" && result.results.bindings.length > cap) {
    return { result: { ...result, results: { bindings: result.results.bindings.slice(0, cap) } }, truncated: true };
  }
  // the endpoint stopped at its own row cap (at or below ours): the rows shown are not all there are
  if (result.kind === "SELECT" && result.serverRowCap !== undefined) return { result, truncated: true };
  if ((result.kind === "CONSTRUCT" || result.kind === "DESCRIBE") && result.triples.length > cap) {
    return { result: { ...result, triples: result.triples.slice(0, cap) }, truncated: true };
  }
  return { result, truncated: false };
}

export async function runConsoleQuery(kg: KnowledgeGraph, query: string, options: ConsoleOptions = {}): Promise<SparqlResponse> {
  const rowCap = options.rowCap ?? SPARQL_ROW_CAP;
  const now = options.now ?? Date.now;
  const parsed = parseReadOnly(query); // syntax errors (with line/column) and updates stop here
  if (parsed.serviceIris.length > 0 && !(options.allowService ?? false)) {
    throw new AppError("sparql_forbidden", `Federated SERVICE queries are turned off on this server (${parsed.serviceIris.slice(0, 3).join(", ")}); set SPARQL_ALLOW_SERVICE=true to allow them.`);
  }
  const started = now();
  const raw = await kg.query(capQuery(parsed.query, rowCap), { timeoutMs: options.timeoutMs, signal: options.signal });
  const ms = now() - started;
  const { result: cut, truncated } = truncate(raw, rowCap);
  const result = cut.kind === "SELECT" ? { ...cut, head: { vars: projectionOrder(parsed.query, parsed.ast, cut.head.vars) } } : cut;
  const labels = await fetchLabels(kg, irisOf(result), { timeoutMs: options.timeoutMs, signal: options.signal });
  const declared = parsed.declaredPrefixes.length ? { declared: { query: parsed.query, prefixes: parsed.declaredPrefixes } } : {};
  return { result, ms, truncated, rowCap, labels, ...declared };
}
