// Entity retriever (Chatty-KG paper §5.1.1; also Triad's entity candidates): candidate vertices for one mention via the KG's label search, deduplicated by IRI.
import { toAppError, type ErrorCode } from "@/lib/errors";
import type { LabelHit } from "@/lib/kg/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { langRank } from "@/lib/pipeline/common/labels";
import { describeCorrection, describeSource } from "@/lib/kg/lexicon";
import { compactIri } from "@/lib/kg/profile";
import { getLexicon, lexiconAffordable, STRONG_MATCH } from "@/lib/pipeline/common/lexicon";

export interface VertexCandidate {
  iri: string;
  label: string;
  lang?: string;
  /** the label search's relevance (higher is better); candidates are sorted by it */
  score: number;
  /** found through the KG lexicon: the name that matched and where it came from (a predicate, or the IRI's local name) */
  matched?: { name: string; via: string };
}

/** A failed search keeps the KG's error code (kg_timeout, kg_unreachable, kg_http …) so the failure is attributed to the KG. */
export type RetrievalResult = { ok: true; candidates: VertexCandidate[] } | { ok: false; error: string; code: ErrorCode };

/** Shown in the trace: enough to see what was found without dumping hundreds of rows. */
const TRACE_TOP = 10;

/**
 * Keeps one candidate per IRI: the best score, and the label in the profile's language when the search returned
 * several (untagged next, other languages last). Sorted by score, best first; ties keep the search's order.
 */
export function dedupeCandidates(hits: LabelHit[], language: string): VertexCandidate[] {
  const byIri = new Map<string, VertexCandidate & { order: number; rank: number }>();
  hits.forEach((h, order) => {
    const rank = langRank(h.lang, language);
    const prev = byIri.get(h.iri);
    if (!prev) {
      byIri.set(h.iri, { iri: h.iri, label: h.label, ...(h.lang ? { lang: h.lang } : {}), score: h.score, order, rank });
      return;
    }
    const score = Math.max(prev.score, h.score);
    if (rank < prev.rank) byIri.set(h.iri, { ...prev, label: h.label, lang: h.lang, rank, score });
    else prev.score = score;
  });
  return [...byIri.values()]
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map(({ iri, label, lang, score }) => ({ iri, label, ...(lang ? { lang } : {}), score }));
}

/**
 * Retrieves up to `config.vlimit` candidate vertices for a mention. The mention is user text: it goes to the KG
 * adapter as data (adapters escape it), never into a query here. A failed search is returned as data, with its code.
 */
export async function retrieveCandidates(mention: string, ctx: AgentContext): Promise<RetrievalResult> {
  const text = mention.trim();
  const input = { mention: text, limit: ctx.config.vlimit, adapter: ctx.kg.profile.labelSearch };
  if (!text) {
    ctx.emit({ type: "tool-call", stage: "entity-linking", tool: "label-search", input, output: { count: 0 } });
    return { ok: true, candidates: [] };
  }
  try {
    const hits = await ctx.searchLabels("entity-linking", text, { limit: ctx.config.vlimit });
    let candidates = dedupeCandidates(hits, ctx.kg.profile.language);
    ctx.emit({
      type: "tool-call",
      stage: "entity-linking",
      tool: "label-search",
      input,
      output: { count: candidates.length, top: candidates.slice(0, TRACE_TOP) },
    });
    // the profile's labels know nothing of it: the KG lexicon's names (discovered name predicates, IRI local names)
    if (candidates.length === 0) candidates = await lexiconCandidates(text, ctx);
    return { ok: true, candidates };
  } catch (e) {
    // an error without a code of its own (not an AppError) stays a pipeline failure
    const err = toAppError(e, "pipeline_failed");
    if (err.code === "aborted") throw err;
    ctx.emit({ type: "tool-call", stage: "entity-linking", tool: "label-search", input, error: err.message });
    return { ok: false, error: err.message, code: err.code };
  }
}

/**
 * Candidates from the KG lexicon (entities and classes), each saying which of its names matched; [] when the KG is too
 * large to build a lexicon on the way. The lookup shows in the trace as a "lexicon-search" tool call.
 */
async function lexiconCandidates(text: string, ctx: AgentContext): Promise<VertexCandidate[]> {
  let lexicon;
  try {
    if (!(await lexiconAffordable(ctx, "entity-linking"))) return [];
    lexicon = (await getLexicon(ctx, "entity-linking")).lexicon;
  } catch (e) {
    // a help, not a requirement: the label search's (empty) answer stands
    const err = toAppError(e);
    if (err.code === "aborted" || ctx.signal?.aborted) throw err;
    ctx.emit({ type: "warning", stage: "entity-linking", message: `The KG lexicon could not be built: ${err.message}` });
    return [];
  }
  // every word of the mention matched (as typed or inflected): a partial match of a value-like mention is noise
  const strong = (t: string) => lexicon.search(t, { limit: ctx.config.vlimit, kinds: ["entity", "class"] }).filter((h) => h.score >= STRONG_MATCH);
  let hits = strong(text);
  // users misspell: no name holds the words, so the names' words a small edit distance away are tried (and said)
  let approximate = "";
  if (hits.length === 0) {
    const corrected = lexicon.correctWords(text, ["entity", "class"]);
    if (corrected) {
      hits = strong(corrected.text);
      approximate = corrected.corrections.map(describeCorrection).join(", ");
    }
  }
  const show = (p: string) => compactIri(p, ctx.kg.profile.prefixes);
  const candidates = hits.map((h) => ({
    iri: h.iri,
    label: h.display,
    ...(h.matched.lang ? { lang: h.matched.lang } : {}),
    score: h.score,
    matched: { name: h.matched.text, via: `${describeSource(h.matched.source, show)}${approximate ? ` — approximate: ${approximate}` : ""}` },
  }));
  ctx.emit({
    type: "tool-call",
    stage: "entity-linking",
    tool: "lexicon-search",
    input: { mention: text, limit: ctx.config.vlimit },
    output: { count: candidates.length, top: candidates.slice(0, TRACE_TOP), ...(approximate && hits.length ? { approximate } : {}) },
  });
  return candidates;
}
