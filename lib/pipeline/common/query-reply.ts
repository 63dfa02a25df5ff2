// Reads the one SPARQL query out of a model reply or a user's edit (```sparql block, JSON {"sparql"}, or bare) and makes it safe to run:
// missing schema prefixes declared, read-only guard, SELECT/ASK only, no SERVICE, SELECT rows capped (config.rowLimit).
import type sparqljs from "sparqljs";
import { stringifySparql } from "@/lib/kg/sparql-syntax";
import { isAppError } from "@/lib/errors";
import { extractJson } from "@/lib/llm/json";
import { parseReadOnly } from "@/lib/kg/sparql-guard";
import type { Validation } from "@/lib/pipeline/common/validated-call";
import { projectsAggregate } from "@/lib/pipeline/common/answer-from-result";
import { completePrefixes } from "@/lib/pipeline/common/prefixes";

export { completePrefixes };

export interface GuardedQuery {
  /** the query as it runs (prefixes completed, LIMIT capped at the row limit) */
  sparql: string;
  kind: "SELECT" | "ASK";
  /** the SELECT projects an aggregate (COUNT, SUM, …): a single numeric row is a count, not an item */
  aggregate: boolean;
}

const QUERY_START = /^\s*(PREFIX|BASE|SELECT|ASK|CONSTRUCT|DESCRIBE|INSERT|DELETE|WITH|LOAD|CLEAR|DROP|CREATE|ADD|MOVE|COPY)\b/i;

/** The query text in a reply, or undefined when there is none. */
export function extractQuery(reply: string): string | undefined {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/gi, "").trim();
  for (const m of text.matchAll(/```[a-zA-Z]*[^\S\n]*\n?([\s\S]*?)```/g)) {
    const body = m[1].trim();
    if (QUERY_START.test(body) || /\b(SELECT|ASK|INSERT|DELETE)\b/i.test(body.split("{")[0])) return body;
  }
  const json = extractJson(text, { expect: "object" });
  if (json.ok && json.value && typeof json.value === "object") {
    const o = json.value as Record<string, unknown>;
    const q = o.sparql ?? o.query;
    if (typeof q === "string" && q.trim()) return q.trim();
  }
  if (QUERY_START.test(text)) return text;
  return undefined;
}

/**
 * Checks and prepares the model's reply; the reason (fed back to the model) says what to fix. A SELECT's LIMIT is added
 * or lowered to `rowLimit` (config.rowLimit: the app's cap, raised by evaluation runs).
 */
export function guardReply(reply: string, prefixes: Record<string, string>, rowLimit: number): Validation<GuardedQuery> {
  const raw = extractQuery(reply);
  if (!raw) return { ok: false, reason: "no SPARQL query found: reply with one query in a ```sparql code block" };
  const query = completePrefixes(raw, prefixes);
  let parsed;
  try {
    parsed = parseReadOnly(query);
  } catch (e) {
    if (!isAppError(e)) throw e;
    const expected = isAppError(e, "sparql_syntax") && Array.isArray(e.details?.expected) ? ` (expected one of: ${(e.details.expected as string[]).join(", ")})` : "";
    return { ok: false, reason: `the query was refused: ${e.message}${expected}` };
  }
  if (parsed.kind !== "SELECT" && parsed.kind !== "ASK") return { ok: false, reason: `a ${parsed.kind} query returns triples, not an answer: write a SELECT or ASK query` };
  if (parsed.serviceIris.length) return { ok: false, reason: "SERVICE clauses (queries to other endpoints) are not allowed" };
  // the guard's text: well-known prefixes the query uses undeclared (rdfs:, xsd:, …) are declared there
  if (parsed.kind === "ASK") return { ok: true, value: { sparql: parsed.query, kind: "ASK", aggregate: false } };
  const ast = parsed.ast as sparqljs.SelectQuery;
  const aggregate = projectsAggregate(ast);
  if (ast.limit !== undefined && ast.limit <= rowLimit) return { ok: true, value: { sparql: parsed.query, kind: "SELECT", aggregate } };
  // bounded result: cap the rows in the query itself so the KG stops early
  const capped = stringifySparql({ ...ast, limit: rowLimit });
  return { ok: true, value: { sparql: capped, kind: "SELECT", aggregate } };
}
