// D-agent's executor (Triad §3.2): runs the candidate queries (bounded concurrency, each with the KG's query timeout)
// and keeps the ones that return rows; what they returned is kept for the choice and the A-agent.
import { createHash } from "node:crypto";
import { toAppError } from "@/lib/errors";
import type { QueryResult, Term } from "@/lib/kg/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { isNumericLiteral } from "@/lib/pipeline/common/answer-from-result";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import type { ExecutedCandidate, TriadState } from "./state";

/** Candidate queries in flight at once (a small KG answers fast; a remote endpoint should not be flooded). */
export const EXECUTION_CONCURRENCY = 4;
const PREVIEW = 3;

const termKey = (t: Term) => (t.type === "literal" ? `L ${t.value} ${t["xml:lang"] ?? ""} ${t.datatype ?? ""}` : `U ${t.value}`);

/**
 * What a result amounts to: its non-empty rows (blank nodes count as unbound), a preview of the first column's values
 * and a signature shared by identical results. A single row holding only 0 (an aggregate over nothing) is no rows.
 */
export function readResult(result: QueryResult): Pick<ExecutedCandidate, "rows" | "boolean" | "preview" | "signature"> {
  if (result.kind === "ASK") return { rows: result.boolean ? 1 : 0, boolean: result.boolean, signature: String(result.boolean) };
  if (result.kind !== "SELECT") return { rows: 0 };
  const vars = result.head.vars;
  const rows = result.results.bindings
    .map((b) => vars.map((v): Term | null => (b[v] && b[v].type !== "bnode" ? b[v] : null)))
    .filter((r) => r.some((c) => c !== null));
  const bound = rows.length === 1 ? rows[0].filter((c): c is Term => c !== null) : [];
  if (bound.length === 1 && isNumericLiteral(bound[0]) && Number(bound[0].value) === 0) return { rows: 0 };
  if (rows.length === 0) return { rows: 0 };
  const keys = [...new Set(rows.map((r) => r.map((c) => (c ? termKey(c) : "-")).join("\u0000")))].sort();
  const preview = [...new Set(rows.map((r) => r.find((c) => c !== null)).filter((c): c is Term => !!c).map((c) => c.value))].slice(0, PREVIEW);
  return { rows: keys.length, preview, signature: createHash("sha1").update(keys.join("\n")).digest("hex") };
}

/** `{ executed, results }`; a query that fails (timeout, engine error) counts as one without rows. */
export async function executorAgent(state: TriadState, ctx: AgentContext): Promise<Partial<TriadState>> {
  const candidates = state.candidates ?? [];
  const results: Record<number, QueryResult> = {};
  const executed = await mapBounded(candidates, EXECUTION_CONCURRENCY, async (c): Promise<ExecutedCandidate> => {
    const started = ctx.now();
    try {
      const result = await ctx.sparql("execution", `candidate query ${c.id} of ${candidates.length}`, c.sparql);
      results[c.id] = result;
      return { id: c.id, ms: ctx.now() - started, ...readResult(result) };
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "aborted") throw err;
      return { id: c.id, rows: 0, ms: ctx.now() - started, error: err.message };
    }
  });
  return { executed, results };
}
