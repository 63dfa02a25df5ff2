// Type and description hints for KG vertices, so a model can tell same-named candidates apart (Chatty-KG's vertex
// selection, Triad's entity selection).
import { localName } from "@/lib/kg/profile";
import type { Stage } from "@/lib/pipeline/types";
import type { AgentContext } from "./agent-context";
import { fetchLabels, langRank, localNameWords } from "./labels";
import { predicateUnion, selectQuery, stringify, valuesOf, variable } from "./sparql-ast";

export interface VertexHint {
  types: string[];
  description?: string;
}

const MAX_TYPES = 3;
const MAX_DESCRIPTION = 140;
const HINT_ROWS = 4000;

/** " — type: film, novel; \"short description\"" (empty without hints): the form option lines show and the oracle reads. */
export function formatHint(h: VertexHint): string {
  const parts: string[] = [];
  if (h.types.length) parts.push(`type: ${h.types.join(", ")}`);
  if (h.description) parts.push(JSON.stringify(h.description));
  return parts.length ? ` — ${parts.join("; ")}` : "";
}

/**
 * Types (labelled) and a short description per vertex, from profile.typePredicates / descriptionPredicates.
 * Hints help the model but are not facts the answer rests on, so a failing query just leaves them out.
 */
export async function fetchHints(ctx: Pick<AgentContext, "kg" | "sparql" | "signal">, iris: string[], stage: Stage = "entity-linking"): Promise<Map<string, VertexHint>> {
  const { typePredicates, descriptionPredicates, language } = ctx.kg.profile;
  const out = new Map<string, VertexHint>();
  const predicates = [...typePredicates, ...descriptionPredicates];
  if (iris.length === 0 || predicates.length === 0) return out;
  const query = stringify({
    ...selectQuery(["s", "p", "o"], [valuesOf("s", iris), predicateUnion(variable("s"), "p", variable("o"), predicates)]),
    limit: HINT_ROWS,
  });
  let rows;
  try {
    const r = await ctx.sparql(stage, "type and description hints for same-named candidates", query);
    rows = r.kind === "SELECT" ? r.results.bindings : [];
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return out;
  }
  const types = new Map<string, string[]>();
  const descs = new Map<string, { text: string; rank: number }>();
  for (const row of rows) {
    const s = row.s?.value;
    const p = row.p?.value;
    const o = row.o;
    if (!s || !p || !o) continue;
    if (typePredicates.includes(p) && o.type === "uri") {
      const list = types.get(s) ?? [];
      if (!list.includes(o.value)) list.push(o.value);
      types.set(s, list);
    } else if (descriptionPredicates.includes(p) && o.type === "literal") {
      const rank = langRank(o["xml:lang"], language);
      const prev = descs.get(s);
      if (rank < 3 && (!prev || rank < prev.rank)) descs.set(s, { text: o.value.trim(), rank });
    }
  }
  const typeLabels = await fetchLabels(ctx, stage, [...new Set([...types.values()].flat())], "labels of candidate types");
  for (const iri of iris) {
    const t = (types.get(iri) ?? []).map((x) => typeLabels.get(x) ?? (localNameWords(x) || localName(x)));
    const d = descs.get(iri)?.text;
    out.set(iri, {
      types: [...new Set(t)].slice(0, MAX_TYPES),
      ...(d ? { description: d.length > MAX_DESCRIPTION ? `${d.slice(0, MAX_DESCRIPTION)}…` : d } : {}),
    });
  }
  return out;
}
