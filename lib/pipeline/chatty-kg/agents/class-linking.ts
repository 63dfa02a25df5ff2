// Class linking: the class an unknown belongs to ("hotels" → the KG's Hotel class), by class labels or local
// names, singular or plural (a word misspelt within the typo search's edits shares the word); several close classes go
// to the vertex-selection call as options.
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import { isSafeIri } from "@/lib/kg/escape";
import { bgp, selectQuery, stringify, triple, valuesOf, variable } from "@/lib/pipeline/common/sparql-ast";
import { lookUpTerms } from "@/lib/pipeline/common/lexicon";
import { allowedEdits, editDistance } from "@/lib/kg/lexicon";
import { kgSchemaLists, type NamedIri } from "./kg-schema-cache";
import type { IriOption } from "./vertex-selection";

/** Close but not exact classes offered to the model. */
export const MAX_CLASS_OPTIONS = 12;

/** "categories" → "category", "boxes" → "box", "hotels" → "hotel" (the last word only: "record labels"). */
export function singular(phrase: string): string {
  return phrase.replace(/([\p{L}]+)$/u, (w) => {
    const l = w.toLowerCase();
    if (l.length <= 3 || /(ss|us|is)$/.test(l)) return w;
    if (l.endsWith("ies")) return `${w.slice(0, -3)}y`;
    if (/(sses|xes|ches|shes|zes)$/.test(l)) return w.slice(0, -2);
    if (l.endsWith("s")) return w.slice(0, -1);
    return w;
  });
}

/** The forms a name is compared in: normalised, camelCase split, singular. */
function forms(text: string): Set<string> {
  const base = normalizeLabel(text.replace(/([a-z\d])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " "));
  return new Set([base, singular(base)]);
}

const tokens = (text: string) => new Set([...forms(text)].flatMap((f) => f.split(/[^\p{L}\p{N}]+/u)).filter((t) => t.length > 2));

function matches(mention: string, c: NamedIri): { exact: boolean; overlap: number } {
  const m = forms(mention);
  const names = [c.label, c.words];
  const exact = names.some((n) => [...forms(n)].some((f) => m.has(f)));
  const mt = [...tokens(mention)];
  // a word the question misspells ("appelations") shares the word, as the typo-tolerant name search reads it
  const same = (t: string) => mt.some((w) => w === t || (allowedEdits(w) > 0 && editDistance(w, t, allowedEdits(w)) <= allowedEdits(w)));
  const overlap = Math.max(...names.map((n) => [...tokens(n)].filter(same).length));
  return { exact, overlap };
}

/** Classes among the label-search hits (one VALUES query): for KGs whose class list is too long to read whole. */
async function classesAmongHits(ctx: AgentContext, mention: string): Promise<NamedIri[]> {
  const hits = await ctx.searchLabels("entity-linking", mention, { limit: 50 });
  const iris = [...new Set(hits.map((h) => h.iri))].filter(isSafeIri);
  const types = ctx.kg.profile.typePredicates.filter(isSafeIri);
  if (iris.length === 0 || types.length === 0) return [];
  const q = stringify(selectQuery(["c"], [valuesOf("c", iris), valuesOf("t", types), bgp([triple(variable("x"), variable("t"), variable("c"))])], { limit: 50 }));
  const r = await ctx.sparql("entity-linking", `classes named like ${JSON.stringify(mention)}`, q);
  const found = new Set(r.kind === "SELECT" ? r.results.bindings.map((b) => b.c?.value) : []);
  const labels = new Map(hits.map((h) => [h.iri, h.label]));
  return iris.filter((i) => found.has(i)).map((iri) => ({ iri, label: labels.get(iri) ?? localNameWords(iri), words: localNameWords(iri), labelled: labels.has(iri) }));
}

/** Classes the KG lexicon finds by one of their names (stemmed), with its 0..1 score; none when it cannot be built. */
async function lexiconClasses(mention: string, ctx: AgentContext): Promise<Map<string, number>> {
  try {
    const hits = await lookUpTerms(ctx, "entity-linking", mention, { limit: MAX_CLASS_OPTIONS, kinds: ["class"] });
    return new Map(hits.filter((h) => isSafeIri(h.iri)).map((h) => [h.iri, h.score]));
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return new Map();
  }
}

/** Below this similarity a class is not offered for a mention that shares no word with it. */
const MIN_CLASS_SIMILARITY = 0.3;

async function closeClasses<T extends { c: NamedIri; overlap: number }>(mention: string, scored: T[], ctx: AgentContext): Promise<T[]> {
  if (scored.length === 0) return [];
  const sims = await ctx.similarity.scores(mention, scored.map((s) => `${s.c.label} ${s.c.words}`));
  return scored
    .map((s, i) => ({ s, sim: sims[i] ?? 0 }))
    .filter((x) => x.s.overlap > 0 || x.sim >= MIN_CLASS_SIMILARITY)
    .sort((a, b) => b.sim - a.sim || b.s.overlap - a.s.overlap || a.s.c.label.length - b.s.c.label.length)
    .map((x) => x.s);
}

/**
 * The class options for a mention: every class whose label or local name equals it (exact), else the classes sharing
 * a word with it, closest first. The KG's class list is read once per KG (kg-schema-cache.ts); when it was cut at its
 * bound, the label search adds classes it finds by name.
 */
export async function classOptions(mention: string, ctx: AgentContext): Promise<IriOption[]> {
  const lists = await kgSchemaLists(ctx);
  let pool = lists.classes;
  if (!lists.classesComplete) {
    const more = await classesAmongHits(ctx, mention);
    const seen = new Set(pool.map((c) => c.iri));
    pool = [...pool, ...more.filter((c) => !seen.has(c.iri))];
    const labels = await fetchLabels(ctx, "entity-linking", more.map((c) => c.iri), "class labels");
    pool = pool.map((c) => (labels.has(c.iri) ? { ...c, label: labels.get(c.iri) as string, labelled: true } : c));
  }
  const named = await lexiconClasses(mention, ctx);
  const seen = new Set(pool.map((c) => c.iri));
  pool = [...pool, ...[...named.keys()].filter((iri) => !seen.has(iri)).map((iri) => ({ iri, label: localNameWords(iri), words: localNameWords(iri), labelled: false }))];
  const scored = pool.map((c) => {
    const m = matches(mention, c);
    // the lexicon's whole-name match (inflection folded, any of the class's names) is exact too
    return { c, ...m, exact: m.exact || named.get(c.iri) === 1 };
  });
  const exact = scored.filter((s) => s.exact);
  // no exact name: the classes sharing a word with the mention and those closest to it by similarity (a class the
  // question names by a synonym or another inflection, "generators" for a generating unit), closest first
  const close = exact.length ? [] : await closeClasses(mention, scored, ctx);
  const picked = exact.length ? exact : close.slice(0, MAX_CLASS_OPTIONS);
  ctx.emit({ type: "tool-call", stage: "entity-linking", tool: "class-search", input: { mention, classes: pool.length }, output: picked.map((s) => ({ iri: s.c.iri, label: s.c.label, exact: s.exact })) });
  return picked.map((s) => ({ kind: "class", iri: s.c.iri, label: s.c.label, exact: s.exact }));
}
