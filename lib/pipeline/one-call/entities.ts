// The entities a one-call question names: the label search for what the question writes as a name (quoted text,
// capitalised runs, codes), and the KG lexicon (as the other strategies use it) for what the label search misses —
// names without labels (IRI local names, discovered name predicates) and names written in lower case or inflected
// ("the maltese flag" for ex:MalteseFlag, "clock towers" for ex:ClockTower).
import { toAppError } from "@/lib/errors";
import { tokenize } from "@/lib/kg/label-index";
import type { LexiconHit } from "@/lib/kg/lexicon";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { getLexicon, hitForTrace, lexiconAffordable, STRONG_MATCH } from "@/lib/pipeline/common/lexicon";
import type { Stage } from "@/lib/pipeline/types";
import type { FoundEntity } from "./state";

const MENTIONS = 4;
const HITS_PER_MENTION = 3;
/** entities the lexicon adds at most (the prompt lists them all) */
const LEXICON_ENTITIES = 8;
const MAX_NGRAM = 4;
/** Words that never name anything on their own (English function words and question words). */
const FUNCTION_WORDS = new Set(
  "a an the of in on at to for from by with and or not no is are was were be been do does did has have had what which who whom whose when where why how many much list give show tell name names all any each every some that this these those there their its it his her them they than then as into about over under between more most less least per whether".split(" "),
);

/** Names a question writes as such: quoted text, runs of capitalised words, codes with digits. Exported for tests. */
export function nameMentions(question: string): string[] {
  const out: string[] = [];
  for (const m of question.matchAll(/["“'‘]([^"”'’]{2,60})["”'’]/g)) out.push(m[1]);
  for (const m of question.matchAll(/\b(\p{Lu}[\p{L}\p{N}&.-]*(?:\s+(?:(?:of|de|the|and|&|von|van|der)\s+)*\p{Lu}[\p{L}\p{N}&.-]*)*)/gu)) {
    // a capital at the start of the question is grammar, not a name, unless more capitals follow
    if (m.index === 0 && !/\s\p{Lu}/u.test(m[1])) continue;
    out.push(m[1]);
  }
  for (const m of question.matchAll(/\b[\p{L}]*\p{N}[\p{L}\p{N}_-]{2,}\b/gu)) if (!/^\d{1,4}$/.test(m[0])) out.push(m[0]);
  return [...new Set(out.map((s) => s.trim()).filter((s) => s.length > 1))].slice(0, MENTIONS);
}

/** Word spans of the question (longest first) that hold at least one word other than a function word. */
export function questionSpans(question: string, max = MAX_NGRAM): { text: string; from: number; to: number }[] {
  const words = question.split(/[\s?!,;:()]+/).map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")).filter(Boolean);
  const out: { text: string; from: number; to: number }[] = [];
  for (let n = Math.min(max, words.length); n >= 1; n--) {
    for (let i = 0; i + n <= words.length; i++) {
      const span = words.slice(i, i + n);
      if (span.every((w) => FUNCTION_WORDS.has(w.toLowerCase()))) continue;
      // a span does not start or end on a function word ("of the maltese flag" is covered by "maltese flag")
      if (n > 1 && (FUNCTION_WORDS.has(span[0].toLowerCase()) || FUNCTION_WORDS.has(span[n - 1].toLowerCase()))) continue;
      out.push({ text: span.join(" "), from: i, to: i + n });
    }
  }
  return out;
}

/**
 * Entities whose names the lexicon finds in the question's word spans, longest span first, spans not overlapping: a
 * span must be a whole name (as written, or inflected), or hold every word of a name of two or more words.
 */
export function lexiconEntities(search: (text: string) => LexiconHit[], question: string, skip: Set<string>, limit = LEXICON_ENTITIES): { mention: string; hit: LexiconHit }[] {
  const taken: boolean[] = [];
  const out: { mention: string; hit: LexiconHit }[] = [];
  for (const span of questionSpans(question)) {
    if (out.length >= limit) break;
    if (taken.slice(span.from, span.to).some(Boolean)) continue;
    const words = tokenize(span.text).length;
    const hits = search(span.text).filter((h) => !skip.has(h.iri) && (h.score >= 0.999 || (words >= 2 && h.score >= STRONG_MATCH)));
    if (hits.length === 0) continue;
    // same-named things: a few of them (the validator and the repair tell them apart)
    for (const hit of hits.slice(0, HITS_PER_MENTION)) if (!out.some((o) => o.hit.iri === hit.iri)) out.push({ mention: span.text, hit });
    for (let i = span.from; i < span.to; i++) taken[i] = true;
  }
  return out.slice(0, limit);
}

/** KG entities named in the question: label search per name mention, then the lexicon for what it missed. */
export async function findEntities(ctx: AgentContext, question: string, stage: Stage = "retrieval"): Promise<FoundEntity[]> {
  const out: FoundEntity[] = [];
  for (const mention of nameMentions(question)) {
    try {
      const hits = await ctx.searchLabels(stage, mention, { limit: HITS_PER_MENTION });
      ctx.emit({ type: "tool-call", stage, tool: "label-search", input: { mention }, output: { count: hits.length, top: hits.slice(0, HITS_PER_MENTION) } });
      for (const h of hits.slice(0, HITS_PER_MENTION)) if (!out.some((e) => e.iri === h.iri)) out.push({ mention, iri: h.iri, label: h.label });
    } catch (e) {
      // an entity hint is a help: a failed search costs the hint, not the turn
      const err = toAppError(e);
      if (err.code === "aborted" || ctx.signal?.aborted) throw err;
      ctx.emit({ type: "tool-call", stage, tool: "label-search", input: { mention }, error: err.message });
    }
  }
  try {
    if (!(await lexiconAffordable(ctx, stage))) return out;
    const { lexicon } = await getLexicon(ctx, stage);
    const found = lexiconEntities((text) => lexicon.search(text, { limit: HITS_PER_MENTION * 2, kinds: ["entity"] }), question, new Set(out.map((e) => e.iri)));
    if (found.length) {
      ctx.emit({ type: "tool-call", stage, tool: "lexicon-search", input: { text: question, kinds: ["entity"] }, output: { count: found.length, top: found.map((f) => ({ mention: f.mention, ...hitForTrace(f.hit, ctx.kg.profile.prefixes) })) } });
    }
    for (const f of found) out.push({ mention: f.mention, iri: f.hit.iri, label: f.hit.display });
  } catch (e) {
    const err = toAppError(e);
    if (err.code === "aborted" || ctx.signal?.aborted) throw err;
    ctx.emit({ type: "warning", stage, message: `The KG lexicon could not be searched: ${err.message}` });
  }
  return out;
}
