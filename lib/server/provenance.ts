// Provenance of one answer item of a stored attempt: the attempt's executed queries restricted to that item's row (a
// CONSTRUCT per pattern alternative, lib/pipeline/common/provenance.ts), run read-only on the turn's KG, the triples
// labelled; plus the evidence the item cites when its strategy cites (RAGONITE's SQL rows and passages).
import "server-only";
import { PROVENANCE_CAP, type ProvenanceResponse, type ProvenanceTriple } from "@/lib/api/contract";
import type { Queries } from "@/lib/db/queries";
import { AppError, toAppError } from "@/lib/errors";
import type { Term, TripleJson } from "@/lib/kg/types";
import { mapBounded } from "@/lib/pipeline/map-bounded";
import { provenanceQueries } from "@/lib/pipeline/common/provenance";
import type { Answer, AnswerItem } from "@/lib/pipeline/types";
import type { KgRegistry } from "./kg-registry";
import { fetchLabels } from "./labels";

export interface ProvenanceDeps {
  queries: Pick<Queries, "listAttempts">;
  registry: Pick<KgRegistry, "getKg">;
}

const QUERY_TIMEOUT_MS = 15_000;

/** The row of the answer the user expanded: [item], a table row's cells, or [] for a yes; cited ids alongside. */
function rowOf(answer: Answer, index: number | undefined): { row?: (AnswerItem | null)[]; cite: string[]; note?: string } {
  const need = (n: number) => {
    if (index === undefined || index >= n) throw new AppError("bad_request", `The answer has ${n} ${answer.kind === "table" ? "rows" : "items"}; give the index (0–${n - 1}) of the one to explain.`);
    return index;
  };
  switch (answer.kind) {
    case "items": {
      const item = answer.items[need(answer.items.length)];
      return { row: [item], cite: item.cite ?? [] };
    }
    case "table": {
      const row = answer.rows[need(answer.rows.length)];
      return { row, cite: [...new Set(row.flatMap((c) => c?.cite ?? []))] };
    }
    case "boolean":
      if (!answer.value) return { row: undefined, cite: [], note: "A “no” rests on the absence of matching triples: there is nothing to show." };
      return { row: [], cite: [] };
    default:
      throw new AppError("bad_request", `A ${answer.kind} answer has no items to trace back to the KG.`);
  }
}

const key = (t: TripleJson) => [t.subject, t.predicate, t.object].map((x) => `${x.type} ${x.value} ${x.type === "literal" ? `${x.datatype ?? ""} ${x["xml:lang"] ?? ""}` : ""}`).join("|");

/** GET /api/turns/[id]/provenance: the triples behind item `index` of attempt `attempt` (default: the latest) of a turn the session owns. */
export async function provenanceOf(
  deps: ProvenanceDeps,
  sessionId: string,
  turnId: string,
  args: { attempt?: number; index?: number },
  signal?: AbortSignal,
): Promise<ProvenanceResponse> {
  const attempts = await deps.queries.listAttempts({ sessionId, turnId });
  const attempt = args.attempt === undefined ? attempts.at(-1) : attempts.find((a) => a.attempt === args.attempt);
  if (!attempt) throw new AppError("not_found", `Turn ${turnId} has no attempt ${args.attempt}.`);
  if (!attempt.answer || attempt.status !== "done") throw new AppError("bad_request", "This attempt has no answer to explain.");
  const { row, cite, note } = rowOf(attempt.answer, args.index);
  const all = "citations" in attempt.answer ? (attempt.answer.citations ?? []) : [];
  const citations = all.filter((c) => cite.includes(c.id));
  if (!row) return { triples: [], queries: [], citations, truncated: false, note };

  const queries = [...new Set(attempt.sparql.flatMap((q) => provenanceQueries(q, row)))];
  if (queries.length === 0) {
    const why = attempt.sparql.length === 0 ? "no SPARQL query produced this answer" : "the query that produced it has no triple pattern for this item (an aggregate)";
    return { triples: [], queries: [], citations, truncated: false, note: citations.length ? undefined : `Nothing to show: ${why}.` };
  }
  const kg = await deps.registry.getKg(sessionId, attempt.config.kg.id);
  const failures: string[] = [];
  const results = await mapBounded(queries, 4, async (q) => {
    try {
      return (await kg.construct(q, { signal, timeoutMs: QUERY_TIMEOUT_MS })).triples;
    } catch (e) {
      const err = toAppError(e);
      if (err.code === "aborted") throw err;
      failures.push(err.message);
      return [];
    }
  });
  const seen = new Set<string>();
  const found = results.flat().filter((t) => !seen.has(key(t)) && seen.add(key(t)));
  const kept = found.slice(0, PROVENANCE_CAP);
  const iris = kept.flatMap((t) => [t.subject, t.predicate, t.object]).filter((x) => x.type === "uri").map((x) => x.value);
  const labels = await fetchLabels(kg, iris, { signal, timeoutMs: QUERY_TIMEOUT_MS });
  const labelled = (x: Term) => (x.type === "uri" && labels[x.value] ? { ...x, label: labels[x.value] } : x);
  const triples: ProvenanceTriple[] = kept.map((t) => ({ subject: labelled(t.subject), predicate: labelled(t.predicate), object: labelled(t.object) }));
  const notes = [
    ...(failures.length ? [`${failures.length} of ${queries.length} provenance queries failed (${failures[0]})`] : []),
    ...(triples.length === 0 && !failures.length ? ["The KG no longer holds the triples behind this item (it changed since the answer)"] : []),
  ];
  return { triples, queries, citations, truncated: found.length > kept.length, ...(notes.length ? { note: `${notes.join("; ")}.` } : {}) };
}
