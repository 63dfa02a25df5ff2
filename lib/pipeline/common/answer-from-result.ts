// QueryResult → Answer for every strategy that runs generated or model-written SPARQL: ASK → yes/no, one aggregate
// number → count, one projected variable → items, several → a table; IRIs labelled in one batched query; no rows → none.
import type sparqljs from "sparqljs";
import type { QueryResult, Term } from "@/lib/kg/types";
import type { Answer, AnswerItem, Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "./agent-context";
import { fetchLabels } from "./labels";
import { getLexicon, hasLexicon } from "./lexicon";

export const NO_ROWS: Answer = { kind: "none", reason: "The KG returned nothing for the query." };

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
// a lone number under such a variable name is a count even when the query computed no aggregate
const COUNT_NAME = /count|number|num|total|amount/i;

/** A literal whose text is a number (the KG stores the count itself, or an aggregate came back). */
export function isNumericLiteral(t: Term): boolean {
  return t.type === "literal" && NUMERIC.test(t.value.trim());
}

const termKey = (t: Term) => (t.type === "literal" ? `L ${t.value} ${t["xml:lang"] ?? ""} ${t.datatype ?? ""}` : `U ${t.value}`);

/** Terms in first-seen order, without repeats (literals compare value, language and datatype). */
export function dedupeTerms(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = termKey(t);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function toItem(t: Term, labels: Map<string, string>): AnswerItem {
  if (t.type !== "literal") {
    const label = labels.get(t.value);
    return { type: "uri", value: t.value, ...(label ? { label } : {}) };
  }
  return { type: "literal", value: t.value, ...(t.datatype ? { datatype: t.datatype } : {}), ...(t["xml:lang"] ? { lang: t["xml:lang"] } : {}) };
}

async function labelsFor(terms: Term[], ctx: AgentContext, stage: Stage): Promise<Map<string, string>> {
  const iris = terms.filter((t) => t.type === "uri").map((t) => t.value);
  if (!iris.length) return new Map<string, string>();
  const labels = await fetchLabels(ctx, stage, iris, "answer labels");
  // IRIs without a label get the KG lexicon's name (a name literal, else the local name's words), when this turn or an
  // earlier one built it: a label-less KG's answers read "Wren Haldane", not "WrenHaldane" or a urn:uuid
  if (labels.size < iris.length && hasLexicon(ctx.kg)) {
    const { lexicon } = await getLexicon(ctx, stage);
    for (const i of iris) {
      const name = labels.has(i) ? undefined : lexicon.displayName(i);
      if (name) labels.set(i, name);
    }
  }
  return labels;
}

/** AnswerItems with labels for IRIs (one batched label query, shown under the execution stage). Blank nodes must be filtered out before. */
export async function labelItems(terms: Term[], ctx: AgentContext, stage: Stage = "execution"): Promise<AnswerItem[]> {
  const labels = await labelsFor(terms, ctx, stage);
  return terms.map((t) => toItem(t, labels));
}

/** Does the SELECT project an aggregate (COUNT, SUM, …)? Then a single numeric row is a count, not an item. */
export function projectsAggregate(ast: sparqljs.SelectQuery): boolean {
  return (ast.variables ?? []).some((v) => typeof v === "object" && "expression" in v && (v.expression as { type?: string }).type === "aggregate");
}

/**
 * Reports a SELECT that came back with as many rows as it was allowed (`rowLimit`): its answer may be cut.
 * The warning carries code "row-limit" so the evaluation runner can record it. Returns whether it fired.
 */
export function reportRowLimit(ctx: Pick<AgentContext, "emit">, stage: Stage, rows: number, rowLimit: number | undefined): boolean {
  if (rowLimit === undefined || rows < rowLimit) return false;
  ctx.emit({ type: "warning", stage, code: "row-limit", message: `The query returned ${rows} rows, the row limit (${rowLimit}): the answer may be cut.` });
  return true;
}

export interface AnswerFromResultOptions {
  /** the SELECT projects an aggregate (projectsAggregate): a single numeric value is a count */
  aggregate?: boolean;
  /** the row cap the query ran under: reaching it is reported (reportRowLimit) */
  rowLimit?: number;
  /** where label queries and the row-limit warning show in the trace (default "execution") */
  stage?: Stage;
}

/** A result row with blank nodes as unbound cells (they name nothing outside the result set). */
function cells(row: Record<string, Term>, vars: string[]): (Term | null)[] {
  return vars.map((v) => (row[v] && row[v].type !== "bnode" ? row[v] : null));
}

/**
 * The answer and how many rows (items, table rows) support it; 0 = the query found nothing. A count of 0 is "none":
 * the pattern matched nothing, as for an empty SELECT. Repeated items and repeated table rows are dropped.
 */
export async function answerFromResult(
  result: QueryResult,
  ctx: AgentContext,
  options: AnswerFromResultOptions = {},
): Promise<{ answer: Answer; rows: number }> {
  const stage = options.stage ?? "execution";
  if (result.kind === "ASK") return { answer: { kind: "boolean", value: result.boolean }, rows: 1 };
  if (result.kind !== "SELECT") return { answer: NO_ROWS, rows: 0 };
  const { vars } = result.head;
  const bindings = result.results.bindings;
  // an endpoint that cut the rows at its own cap (serverRowCap) cuts the answer just the same
  const cap = result.serverRowCap !== undefined ? Math.min(result.serverRowCap, options.rowLimit ?? Infinity) : options.rowLimit;
  reportRowLimit(ctx, stage, bindings.length, cap);
  const grid = bindings.map((row) => cells(row, vars)).filter((r) => r.some((c) => c !== null));
  if (grid.length === 0) return { answer: NO_ROWS, rows: 0 };

  const bound = grid.length === 1 ? grid[0].flatMap((c, i) => (c ? [{ term: c, name: vars[i] }] : [])) : [];
  if (bound.length === 1 && isNumericLiteral(bound[0].term) && (options.aggregate || COUNT_NAME.test(bound[0].name))) {
    const count = Number(bound[0].term.value);
    return count === 0 ? { answer: NO_ROWS, rows: 0 } : { answer: { kind: "count", count }, rows: 1 };
  }

  if (vars.length <= 1) {
    const unique = dedupeTerms(grid.map((r) => r[0]).filter((t): t is Term => t !== null));
    return { answer: { kind: "items", items: await labelItems(unique, ctx, stage) }, rows: unique.length };
  }

  const seen = new Set<string>();
  const rows = grid.filter((r) => {
    const key = r.map((c) => (c ? termKey(c) : "-")).join("\u0000");
    return !seen.has(key) && seen.add(key);
  });
  const labels = await labelsFor(rows.flatMap((r) => r.filter((c): c is Term => c !== null)), ctx, stage);
  return {
    answer: { kind: "table", columns: [...vars], rows: rows.map((r) => r.map((c) => (c ? toItem(c, labels) : null))) },
    rows: rows.length,
  };
}
