// The names the KG gives a gold IRI besides its label (the KG lexicon's: a name in the KG's own predicate, an id, its
// IRI's local part), and the question span that names it — by a whole name, or by an id's prefix as people quote ids
// ("f1769624" for "f1769624-9aeb-…"). The span is the question's own text; the names only decide which span it is.
import { localPart } from "@/lib/kg/lexicon";
import type { KnowledgeGraph } from "@/lib/kg/types";
import { questionSpan } from "./oracle-grounding";
import { oracleLexicon } from "./oracle-lexicon-names";

/**
 * Every name of each IRI in the KG lexicon (best first), plus the IRI's local part (an opaque IRI's id). The lexicon is
 * the one the pipeline builds for this KG object (cached per KG), so the oracle sees the names the pipeline can find.
 */
export async function fetchLexiconNames(kg: KnowledgeGraph, iris: string[], signal?: AbortSignal): Promise<Map<string, string[]>> {
  const lexicon = await oracleLexicon(kg, signal);
  const out = new Map<string, string[]>();
  for (const i of new Set(iris)) out.set(i, [...new Set([...lexicon.namesOf(i).map((n) => n.text), localPart(i)].filter((n) => n.trim() !== ""))]);
  return out;
}

/** A question word that reads as an id (letters and digits, at least 6 characters, at least one digit). */
const ID_WORD = /^(?=[\p{L}\d_-]*\d)[\p{L}\d][\p{L}\d_-]{5,}$/u;

/**
 * The question's span naming an IRI by one of `names`: a whole name as a span, else a question word that is the
 * start of an id-like name (at least 6 characters, ended where the id breaks: "f1769624" of "f1769624-9aeb-…").
 */
export function nameSpan(names: string[], question: string): string | null {
  for (const n of names) {
    const span = questionSpan(n, question);
    if (span !== null) return span;
  }
  for (const raw of question.split(/\s+/)) {
    const word = raw.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, "");
    if (!ID_WORD.test(word)) continue;
    const w = word.toLowerCase();
    const hit = names.some((n) => {
      const name = n.toLowerCase();
      return name.startsWith(w) && (name.length === w.length || /[^\p{L}\d]/u.test(name[w.length]));
    });
    if (hit) return word;
  }
  return null;
}
