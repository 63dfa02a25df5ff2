// The read-only gate: every query is parsed (sparql-syntax.ts: sparqljs with its deviations corrected) before it reaches
// a KG; updates never pass. Well-known prefixes (rdfs:, xsd:, …) a query uses without declaring them are declared here,
// so every caller runs `query`.
import type sparqljs from "sparqljs";
import { AppError } from "@/lib/errors";
import type { QueryKind } from "./types";
import { parseSparql } from "./sparql-syntax";
import { parseDeclaring } from "./well-known-prefixes";

export interface ParsedQuery {
  kind: QueryKind;
  ast: sparqljs.SparqlQuery;
  /** hosts named in SERVICE clauses (federation); callers decide whether to allow them */
  serviceIris: string[];
  /** the query as it runs and is shown: the text given, with the well-known prefixes it uses undeclared declared */
  query: string;
  /** the well-known prefixes that were declared (empty: `query` is the text given) */
  declaredPrefixes: string[];
}

const READ_KINDS: ReadonlySet<string> = new Set(["SELECT", "ASK", "CONSTRUCT", "DESCRIBE"]);

// Why: parsing is ~0.3 ms of main-thread CPU per query and the same strings recur (label and predicate lookups of the
// same entities across turns and users), so the last accepted queries are kept. Refusals are not cached (they throw
// fresh errors). Callers treat the result as read-only: a cached AST is shared.
export const PARSE_CACHE_SIZE = 256;
const PARSE_CACHE_MAX_QUERY = 16 * 1024;
const parseCache = new Map<string, ParsedQuery>();

/** Parses a query and refuses anything that is not SELECT/ASK/CONSTRUCT/DESCRIBE. */
export function parseReadOnly(query: string): ParsedQuery {
  const hit = parseCache.get(query);
  if (hit) {
    // least recently used goes first: re-insert to mark it fresh
    parseCache.delete(query);
    parseCache.set(query, hit);
    return hit;
  }
  const result = parseUncached(query);
  if (query.length <= PARSE_CACHE_MAX_QUERY) {
    parseCache.set(query, result);
    if (parseCache.size > PARSE_CACHE_SIZE) parseCache.delete(parseCache.keys().next().value as string);
  }
  return result;
}

function parseUncached(query: string): ParsedQuery {
  const outcome = parseDeclaring(query, (text) => parseSparql(text));
  if (!outcome.ok) throw syntaxError(outcome.error, query, outcome.lineOffset);
  const parsed = outcome.parsed;
  if (parsed.type === "update") {
    const ops = parsed.updates.map((u) => ("updateType" in u ? u.updateType : u.type)).join(", ");
    throw new AppError("sparql_forbidden", `Only read queries may run against a knowledge graph; this is an update (${ops}).`);
  }
  if (!READ_KINDS.has(parsed.queryType)) {
    throw new AppError("sparql_forbidden", `Query type ${parsed.queryType} is not allowed.`);
  }
  return { kind: parsed.queryType as QueryKind, ast: parsed, serviceIris: collectServices(parsed), query: outcome.query, declaredPrefixes: outcome.declared };
}

/** `lineOffset`: PREFIX lines declared in front of the text that failed; the location points into `query` as given. */
function syntaxError(e: unknown, query: string, lineOffset = 0): AppError {
  const err = e as { message?: string; hash?: { loc?: { first_line?: number; first_column?: number }; token?: string; expected?: string[] } };
  const loc = err.hash?.loc;
  const line = loc?.first_line === undefined ? undefined : Math.max(1, loc.first_line - lineOffset);
  const column = loc?.first_column === undefined ? undefined : loc.first_column + 1;
  const firstLine = (err.message ?? String(e)).split("\n")[0];
  const got = err.hash?.token ? ` near '${err.hash.token}'` : "";
  const where = line ? ` at line ${line}${column ? `, column ${column}` : ""}` : "";
  const message = /^Parse error/.test(firstLine) ? `SPARQL syntax error${where}${got}.` : `SPARQL error${where}: ${firstLine}`;
  const expected = err.hash?.expected?.slice(0, 8).map((s) => s.replace(/'/g, ""));
  return new AppError("sparql_syntax", message, {
    cause: e,
    where: { line, column, source: "query" },
    details: { query: query.length > 2000 ? `${query.slice(0, 2000)}…` : query, ...(expected ? { expected } : {}) },
  });
}

function collectServices(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) {
    for (const n of node) collectServices(n, out);
  } else if (node && typeof node === "object") {
    const o = node as Record<string, unknown>;
    if (o.type === "service" && o.name && typeof o.name === "object") out.push(String((o.name as { value: unknown }).value));
    for (const v of Object.values(o)) if (v && typeof v === "object") collectServices(v, out);
  }
  return out;
}
