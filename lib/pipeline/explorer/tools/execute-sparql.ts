// execute_sparql: runs a read-only SELECT/ASK with the turn's timeout and shows the row count, the columns and the first
// and last rows (IRIs labelled); syntax errors come back with line and column, other failures with the KG's reason.
import { z } from "zod";
import { toAppError } from "@/lib/errors";
import type { Bindings, QueryResult } from "@/lib/kg/types";
import { irisOfQuery } from "../final-check";
import { prepareQuery } from "../query-guard";
import type { Render } from "../render";
import { EXPLORE_STAGE, labelsOf, plural, type ExplorerTool, type ToolEnv } from "../tool-env";

export const EXECUTE_SPARQL = "execute_sparql";
/** rows an exploratory SELECT may return (counted up to here) */
export const EXPLORE_ROW_CAP = 10_000;
const HEAD = 5;
const TAIL = 5;
const COLUMNS = 10;

const input = z.object({
  sparql: z.string().min(1).max(20_000).describe("One SPARQL SELECT or ASK query. Prefixes of the schema summary may be used without declaring them."),
});

/** Remembers every value a result returned (to catch answers pasted into the final query as constants). */
export function rememberValues(result: QueryResult, seen: Set<string>): void {
  if (result.kind !== "SELECT") return;
  for (const row of result.results.bindings) for (const t of Object.values(row)) if (t.type !== "bnode") seen.add(t.value);
}

/** The rows as a compact table: header, the first HEAD and last TAIL rows, IRIs with labels. */
export async function renderRows(env: ToolEnv, render: Render, vars: string[], rows: Bindings[]): Promise<string[]> {
  const cols = vars.slice(0, COLUMNS);
  const shown = rows.length <= HEAD + TAIL ? rows : [...rows.slice(0, HEAD), ...rows.slice(-TAIL)];
  const iris = shown.flatMap((r) => cols.map((c) => r[c]).filter((t) => t?.type === "uri").map((t) => t.value));
  const labels = await labelsOf(env, iris, "execute_sparql: labels");
  const cell = (t: Bindings[string] | undefined) => (!t ? "–" : t.type === "uri" ? render.labelled(t.value, labels.get(t.value)) : render.term(t));
  const out = [cols.map((c) => `?${c}`).join(" | ") + (vars.length > COLUMNS ? ` | (+${vars.length - COLUMNS} columns not shown)` : "")];
  shown.forEach((r, i) => {
    if (rows.length > HEAD + TAIL && i === HEAD) out.push(`… ${rows.length - HEAD - TAIL} rows not shown …`);
    out.push(cols.map((c) => cell(r[c])).join(" | "));
  });
  return out;
}

export const executeSparql: ExplorerTool<z.infer<typeof input>> = {
  name: EXECUTE_SPARQL,
  description:
    "Run a read-only SPARQL SELECT or ASK query on the KG. Returns the number of rows, the columns and the first and last 5 rows, or the error (with line and column). Use it to test parts of the final query.",
  input,
  async run({ sparql }, env, render) {
    // one row over the cap tells "more than the cap" from "exactly the cap"
    const prepared = prepareQuery(sparql, env.shape.prefixes, EXPLORE_ROW_CAP + 1);
    if (!prepared.ok) return { text: `The query was not run: ${prepared.reason}`, data: { error: prepared.reason } };
    const unknown = irisOfQuery(prepared.ast).filter((v) => !env.known.check(v).ok);
    const note = unknown.length ? [`Note: ${unknown.slice(0, 3).map((v) => `<${v}>`).join(", ")} ${unknown.length === 1 ? "was" : "were"} not returned by any tool yet; the final query may only use IRIs the tools returned.`] : [];
    const started = env.ctx.now();
    let result: QueryResult;
    try {
      result = await env.ctx.sparql(EXPLORE_STAGE, "execute_sparql", prepared.sparql);
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "aborted") throw err;
      const hint = err.code === "kg_timeout" ? " Make the query more selective (start from a known entity, add a LIMIT)." : "";
      return { text: [`The query failed: ${err.message}${hint}`, ...note].join("\n"), data: { error: err.message, code: err.code } };
    }
    const ms = Math.round(env.ctx.now() - started);
    rememberValues(result, env.seenInResults);
    if (result.kind === "ASK") return { text: [`ASK → ${result.boolean} (${ms} ms)`, ...note].join("\n"), data: { boolean: result.boolean, ms } };
    if (result.kind !== "SELECT") return { text: "The query returned triples, not rows." };
    const rows = result.results.bindings;
    const cut = prepared.capped && rows.length > EXPLORE_ROW_CAP;
    const kept = cut ? rows.slice(0, EXPLORE_ROW_CAP) : rows;
    const count = cut ? `more than ${EXPLORE_ROW_CAP} rows (cut)` : plural(kept.length, "row");
    if (kept.length === 0) {
      return {
        text: [`0 rows (${ms} ms). Check the IRIs, the direction of each property, and how literals are stored (language tag, datatype).`, ...note].join("\n"),
        data: { rows: 0, ms },
      };
    }
    const table = await renderRows(env, render, result.head.vars, kept);
    return { text: [`${count}, ${plural(result.head.vars.length, "column")} (${ms} ms):`, ...table, ...note].join("\n"), data: { rows: kept.length, cut, columns: result.head.vars, ms } };
  },
};
