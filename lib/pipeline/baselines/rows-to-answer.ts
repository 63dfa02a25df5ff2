// Turns the result of the baseline's one query into an Answer: ASK → yes/no, one aggregate number → count,
// other SELECT rows → items (IRIs labelled); nothing found → "none", never a guess.
import type { QueryResult, Term } from "@/lib/kg/types";
import type { Answer } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { dedupeTerms, isNumericLiteral, labelItems } from "@/lib/pipeline/answer-from-rows";
import type { GuardedQuery } from "./query-reply";

export const NO_ROWS: Answer = { kind: "none", reason: "The KG returned nothing for the query." };

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
  const unique = dedupeTerms(terms);
  if (unique.length === 0) return { answer: NO_ROWS, rows: 0 };
  const only = unique.length === 1 && result.results.bindings.length === 1 ? unique[0] : undefined;
  const boundVar = only && vars.find((v) => result.results.bindings[0][v] === only);
  if (only && isNumericLiteral(only) && (query.aggregate || COUNT_NAME.test(boundVar ?? ""))) {
    const count = Number(only.value);
    // COUNT = 0 means the pattern matched nothing: no answer, as for an empty SELECT
    return count === 0 ? { answer: NO_ROWS, rows: 0 } : { answer: { kind: "count", count }, rows: 1 };
  }
  return { answer: { kind: "items", items: await labelItems(unique, ctx) }, rows: unique.length };
}
