// When a candidate vertex is named exactly as the mention: by its label, or by the name the KG lexicon matched (an id,
// a name in the KG's own predicate, its IRI's local name). Triad's D-agent and Chatty-KG's entity linking share it.
import type { VertexCandidate } from "./entity-retriever";
import { normalizeLabel } from "./labels";

/** A mention and a name are the same when they differ only in case, accents and word separators ("Ann_Lee" = "ann lee"). */
export function sameName(a: string, b: string): boolean {
  const fold = (s: string) => normalizeLabel(s.replace(/[_\-.]+/g, " "));
  return fold(a) === fold(b);
}

/** True when one of the candidate's names (its label, or the name the lexicon matched) is the mention. */
export const namedExactly = (c: VertexCandidate, mention: string) => sameName(c.label, mention) || (c.matched !== undefined && sameName(c.matched.name, mention));

/** " matched "…" via …" for an option shown by another name than the one that matched (empty otherwise). */
export const matchedNote = (c: VertexCandidate) => (c.matched && c.matched.name !== c.label ? `matched ${JSON.stringify(c.matched.name)} via ${c.matched.via}` : "");
