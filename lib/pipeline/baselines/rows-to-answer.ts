// Turns the result of the baseline's one query into an Answer: ASK → yes/no, one aggregate number → count,
// other SELECT rows → items (IRIs labelled); nothing found → "none", never a guess.
import type { QueryResult, Term } from "@/lib/kg/types";
import type { Answer, AnswerItem } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/chatty-kg/context";
import { fetchLabels } from "@/lib/pipeline/chatty-kg/agents/relation-linking-labels";
import type { GuardedQuery } from "./query-reply";

export const NO_ROWS: Answer = { kind: "none", reason: "The KG returned nothing for the query." };

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const COUNT_NAME = /count|number|num|total|amount/i;

/** The answer and how many rows support it (0 = the query found nothing). IRIs get labels via one batched query. */
export async function rowsToAnswer(result: QueryResult, query: GuardedQuery, ctx: AgentContext): Promise<{ answer: Answer; rows: number }> {
  if (result.kind === "ASK") return { answer: { kind: "boolean", value: result.boolean }, rows: 1 };
  if (result.kind !== "SELECT") return { answer: NO_ROWS, rows: 0 };
  const { vars } = result.head;
  // per row, the first projected variable that is bound: the prompt asks for the answer variable alone (or first)
  const terms: Term[] = [];
  for (const row of result.results.bindings) {
    const name = vars.find((v) => row[v] && row[v].type !== "bnode");
    if (name) terms.push(row[name]);
  }
  const unique = dedupe(terms);
  if (unique.length === 0) return { answer: NO_ROWS, rows: 0 };
  const only = unique.length === 1 && result.results.bindings.length === 1 ? unique[0] : undefined;
  const boundVar = only && vars.find((v) => result.results.bindings[0][v] === only);
  if (only && only.type === "literal" && NUMERIC.test(only.value.trim()) && (query.aggregate || COUNT_NAME.test(boundVar ?? ""))) {
    const count = Number(only.value);
    // COUNT = 0 means the pattern matched nothing: no answer, as for an empty SELECT
    return count === 0 ? { answer: NO_ROWS, rows: 0 } : { answer: { kind: "count", count }, rows: 1 };
  }
  return { answer: { kind: "items", items: await labelled(unique, ctx) }, rows: unique.length };
}

function dedupe(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = t.type === "literal" ? `L ${t.value} ${t["xml:lang"] ?? ""} ${t.datatype ?? ""}` : `U ${t.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

async function labelled(terms: Term[], ctx: AgentContext): Promise<AnswerItem[]> {
  const iris = terms.filter((t) => t.type === "uri").map((t) => t.value);
  const labels = iris.length ? await fetchLabels(ctx, "execution", iris, "answer labels") : new Map<string, string>();
  return terms.map((t): AnswerItem => {
    if (t.type !== "literal") {
      const label = labels.get(t.value);
      return { type: "uri", value: t.value, ...(label ? { label } : {}) };
    }
    return { type: "literal", value: t.value, ...(t.datatype ? { datatype: t.datatype } : {}), ...(t["xml:lang"] ? { lang: t["xml:lang"] } : {}) };
  });
}
