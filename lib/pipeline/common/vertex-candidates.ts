// When a candidate vertex is named exactly as the mention: by its label, or by the name the KG lexicon matched (an id,
// a name in the KG's own predicate, its IRI's local name). Triad's D-agent and Chatty-KG's entity linking share it.
import { describeSource } from "@/lib/kg/lexicon";
import { compactIri } from "@/lib/kg/profile";
import type { AgentContext } from "./agent-context";
import type { RetrievalResult, VertexCandidate } from "./entity-retriever";
import { normalizeLabel } from "./labels";
import { lexiconAffordable, lookUpTerms } from "./lexicon";

/** A mention and a name are the same when they differ only in case, accents and word separators ("Ann_Lee" = "ann lee"). */
export function sameName(a: string, b: string): boolean {
  const fold = (s: string) => normalizeLabel(s.replace(/[_\-.]+/g, " "));
  return fold(a) === fold(b);
}

/** True when one of the candidate's names (its label, or the name the lexicon matched) is the mention. */
export const namedExactly = (c: VertexCandidate, mention: string) => sameName(c.label, mention) || (c.matched !== undefined && sameName(c.matched.name, mention));

/** " matched "…" via …" for an option shown by another name than the one that matched (empty otherwise). */
export const matchedNote = (c: VertexCandidate) => (c.matched && c.matched.name !== c.label ? `matched ${JSON.stringify(c.matched.name)} via ${c.matched.via}` : "");

/** Lexicon score of a hit that holds every word of the mention (Lexicon.search). */
const ALL_WORDS = 2 / 3;

/**
 * When no label-search candidate is named exactly as the mention, the KG lexicon's hits that hold every word of it
 * (a CamelCase class "CoordinateSystem" for "coordinate system", a name in the KG's own predicate) come first: a
 * label search matching single words ("System of Units") must not hide them. Exact names first, then the rest.
 */
export async function withLexiconNames(mention: string, result: RetrievalResult, ctx: AgentContext): Promise<RetrievalResult> {
  if (!result.ok || !mention.trim() || result.candidates.some((c) => namedExactly(c, mention))) return result;
  let hits;
  try {
    if (!(await lexiconAffordable(ctx, "entity-linking"))) return result;
    hits = await lookUpTerms(ctx, "entity-linking", mention, { limit: ctx.config.vlimit, kinds: ["entity", "class"] });
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return result;
  }
  const seen = new Set(result.candidates.map((c) => c.iri));
  const show = (p: string) => compactIri(p, ctx.kg.profile.prefixes);
  const found: VertexCandidate[] = hits
    .filter((h) => h.score >= ALL_WORDS && !seen.has(h.iri))
    .map((h) => ({ iri: h.iri, label: h.display, score: h.score, matched: { name: h.matched.text, via: describeSource(h.matched.source, show) } }));
  if (found.length === 0) return result;
  const exact = found.filter((c) => namedExactly(c, mention));
  return { ok: true, candidates: [...exact, ...found.filter((c) => !exact.includes(c)), ...result.candidates] };
}
