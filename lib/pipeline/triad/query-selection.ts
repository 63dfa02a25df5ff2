// D-agent, candidate SPARQL selection (Triad §3.2, K = 1): among the candidates that returned rows, the LLM picks the
// most plausible; no call when one result remains (candidates with identical rows count once). An ASK template
// answers yes when any candidate holds, no when all ran and none holds.
import { z } from "zod";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { fetchLabels } from "@/lib/pipeline/common/labels";
import { fetchHints, formatHint, type VertexHint } from "@/lib/pipeline/common/vertex-hints";
import { validatedCall, type Validation } from "@/lib/pipeline/common/validated-call";
import type { CandidateQuery, EntityFiller, ExecutedCandidate, RelationFiller, TriadState } from "./state";

/** Distinct results shown to the model (best ranked first). */
export const MAX_SHOWN = 12;

const choiceSchema = z.object({ choice: z.union([z.number(), z.string()]) });

export function fillerText(f: EntityFiller | RelationFiller): string {
  if ("reversed" in f) return `${f.label}${f.reversed ? " (reversed)" : ""}`;
  return f.kind === "iri" ? f.label : `the text ${JSON.stringify(f.value)} as a value`;
}

/** Entity fillers whose label another filler of the same slot shares (they need a hint to be told apart). */
export function sameLabelled(candidates: CandidateQuery[]): string[] {
  const iris = new Map<string, Set<string>>();
  for (const c of candidates) {
    for (const [slot, f] of Object.entries(c.fillers)) if (!("reversed" in f) && f.kind === "iri") iris.set(`${slot} ${f.label}`, (iris.get(`${slot} ${f.label}`) ?? new Set()).add(f.iri));
  }
  return [...iris.values()].filter((s) => s.size > 1).flatMap((s) => [...s]);
}

/**
 * One block per shown candidate: its fillers as JSON (a same-labelled entity with its type and description hint),
 * its rows and a preview, then the query.
 */
export function renderCandidates(shown: { c: CandidateQuery; e: ExecutedCandidate }[], labels: Map<string, string>, hints: Map<string, VertexHint>): string {
  const text = (f: EntityFiller | RelationFiller) => {
    const hint = !("reversed" in f) && f.kind === "iri" ? hints.get(f.iri) : undefined;
    return hint ? `${fillerText(f)}${formatHint(hint)}` : fillerText(f);
  };
  return shown
    .map(({ c, e }) => {
      const fillers = Object.fromEntries(Object.entries(c.fillers).map(([slot, f]) => [slot, text(f)]));
      const preview = (e.preview ?? []).map((v) => JSON.stringify(labels.get(v) ?? v)).join(", ");
      return `Candidate ${c.id}\nFillers: ${JSON.stringify(fillers)}\nReturned: ${e.rows} row${e.rows === 1 ? "" : "s"}${preview ? `, e.g. ${preview}` : ""}\n\`\`\`sparql\n${c.sparql}\n\`\`\``;
    })
    .join("\n\n");
}

function validateChoice(reply: z.infer<typeof choiceSchema>, ids: number[]): Validation<number> {
  const n = Number(String(reply.choice).replace(/^candidate\s*/i, "").trim());
  return ids.includes(n) ? { ok: true, value: n } : { ok: false, reason: `"choice" must be one of the candidate numbers ${ids.join(", ")}` };
}

/** `{ chosen }`, or a `miss` when no candidate returned rows. */
export async function querySelectionAgent(state: TriadState, ctx: AgentContext): Promise<Partial<TriadState>> {
  const candidates = state.candidates ?? [];
  const executed = new Map((state.executed ?? []).map((e) => [e.id, e]));
  const byRank = [...candidates].sort((a, b) => a.rank - b.rank || a.id - b.id);
  const ran = byRank.filter((c) => executed.has(c.id) && !executed.get(c.id)!.error);
  if (state.generalist?.template.kind === "ASK") {
    const chosen = ran.find((c) => executed.get(c.id)!.boolean) ?? ran[0];
    if (chosen) return { chosen };
  }
  const withRows = ran.filter((c) => executed.get(c.id)!.rows > 0);
  if (withRows.length === 0) {
    const failedRuns = candidates.length - ran.length;
    return { miss: `${candidates.length} candidate quer${candidates.length === 1 ? "y" : "ies"} ran, none returned rows${failedRuns ? ` (${failedRuns} failed)` : ""}` };
  }
  // one per distinct result, best ranked first
  const distinct = withRows.filter((c, i) => withRows.findIndex((x) => executed.get(x.id)!.signature === executed.get(c.id)!.signature) === i);
  if (distinct.length === 1) return { chosen: distinct[0] };
  const shown = distinct.slice(0, MAX_SHOWN).map((c) => ({ c, e: executed.get(c.id)! }));
  const previewIris = shown.flatMap(({ e }) => e.preview ?? []).filter((v) => /^[a-z][a-z0-9+.-]*:/i.test(v));
  const labels = previewIris.length ? await fetchLabels(ctx, "query-selection", previewIris, "labels of the candidates' answers") : new Map<string, string>();
  const twins = sameLabelled(shown.map(({ c }) => c));
  const hints = twins.length ? await fetchHints(ctx, twins, "query-selection") : new Map<string, VertexHint>();
  const ids = shown.map(({ c }) => c.id);
  const result = await validatedCall(ctx, {
    stage: "query-selection",
    role: "decider",
    schema: choiceSchema,
    prompt: (feedback) =>
      renderPromptPair("triad-query-selection", {
        question: state.standaloneQuestion ?? state.question,
        answerType: state.generalist?.answerType ?? "entities",
        candidates: renderCandidates(shown, labels, hints),
        feedback: feedback ? `\n\n${feedback}` : "",
      }),
    validate: (reply) => validateChoice(reply, ids),
  });
  if (!result.ok) return { failure: { stage: "query-selection", code: "pipeline_failed", message: `The D-agent chose no query: ${result.reason}` } };
  return { chosen: candidates.find((c) => c.id === result.value) };
}
