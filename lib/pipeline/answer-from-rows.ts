// Shared steps from SPARQL result terms to an Answer: numeric-literal test, term dedupe, labelled AnswerItems.
import type { Term } from "@/lib/kg/types";
import type { AnswerItem } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels } from "@/lib/pipeline/common/labels";

const NUMERIC = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** A literal whose text is a number (the KG stores the count itself, or an aggregate came back). */
export function isNumericLiteral(t: Term): boolean {
  return t.type === "literal" && NUMERIC.test(t.value.trim());
}

/** Terms in first-seen order, without repeats (literals compare value, language and datatype). */
export function dedupeTerms(terms: Term[]): Term[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = t.type === "literal" ? `L ${t.value} ${t["xml:lang"] ?? ""} ${t.datatype ?? ""}` : `U ${t.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** AnswerItems with labels for IRIs (one batched label query, shown under the execution stage). Blank nodes must be filtered out before. */
export async function labelItems(terms: Term[], ctx: AgentContext): Promise<AnswerItem[]> {
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
