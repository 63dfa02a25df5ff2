// D-agent, class slots (`… a <eN>`): a class is linked among the KG's classes, not among every vertex sharing a word
// with the mention. When the slot types another entity slot (`<e1> a <e2>`), its fillers are that entity's own types:
// the triple then holds for any of them, so no choice is needed (a model's guess of the class name — "scheduled
// resource" for a class named `ScheduleResource` — must not sink a query whose entity is already linked).
import { describeSource } from "@/lib/kg/lexicon";
import { iri, isSafeIri } from "@/lib/kg/escape";
import { compactIri, NS } from "@/lib/kg/profile";
import { stemmedText } from "@/lib/kg/lexicon";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { RetrievalResult, VertexCandidate } from "@/lib/pipeline/common/entity-retriever";
import { fetchLabels, localNameWords } from "@/lib/pipeline/common/labels";
import { lexiconAffordable, lookUpTerms, STRONG_MATCH } from "@/lib/pipeline/common/lexicon";
import type { EntityFiller, Generalist } from "./state";
import { templateTriples } from "./template-triples";

/** Class slots whose subject is an entity slot (`<e1> a <e2>` → e2 ↦ e1). */
export function classSlotsOfEntities(g: Generalist): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of templateTriples(g.template.ast.where)) {
    if (t.p.kind === "iri" && t.p.iri === `${NS.rdf}type` && t.o.kind === "slot" && t.s.kind === "slot" && g.template.entitySlots.includes(t.s.id)) out.set(t.o.id, t.s.id);
  }
  return out;
}

/** Up to this many types of a linked entity are read (an entailed KG lists every superclass too). */
const MAX_TYPES = 50;

/** How many of the mention's words (stemmed) the class's name holds; ties keep the KG's order. */
function overlap(mention: string, name: string): number {
  const want = new Set(stemmedText(mention).split(" ").filter(Boolean));
  return stemmedText(name)
    .split(" ")
    .filter((w) => want.has(w)).length;
}

/**
 * The types of the entities chosen for the subject slot, best matching the mention first, as fillers of the class
 * slot (at most `k`); empty when the subject has no IRI filler or its vertices have no type.
 */
export async function typesOfLinked(ctx: AgentContext, mention: string, subjects: EntityFiller[], k: number): Promise<{ found: number; chosen: EntityFiller[] }> {
  const iris = [...new Set(subjects.flatMap((f) => (f.kind === "iri" && isSafeIri(f.iri) ? [f.iri] : [])))];
  if (iris.length === 0) return { found: 0, chosen: [] };
  const r = await ctx.sparql(
    "entity-linking",
    "types of the linked entities (the class slot that types them)",
    `SELECT DISTINCT ?t WHERE { VALUES ?s { ${iris.map(iri).join(" ")} } ?s ${iri(`${NS.rdf}type`)} ?t . FILTER(isIRI(?t)) } LIMIT ${MAX_TYPES}`,
  );
  const types = r.kind === "SELECT" ? [...new Set(r.results.bindings.flatMap((b) => (b.t?.type === "uri" ? [b.t.value] : [])))] : [];
  if (types.length === 0) return { found: 0, chosen: [] };
  const labels = await fetchLabels(ctx, "entity-linking", types, "labels of the linked entities' types");
  const named = types.map((t, i) => {
    const label = labels.get(t) ?? (localNameWords(t) || t);
    return { t, label, score: Math.max(overlap(mention, label), overlap(mention, localNameWords(t))), i };
  });
  named.sort((a, b) => b.score - a.score || a.i - b.i);
  // the slot may also type other nodes (`?x a <e2>`): when some types bear the mention's words, only the best of them
  // (a broad ancestor such as "identified object" would widen those nodes to every thing)
  const best = named[0].score > 0 ? named.filter((n) => n.score === named[0].score) : named;
  return { found: types.length, chosen: best.slice(0, k).map((n) => ({ kind: "iri", iri: n.t, label: n.label })) };
}

/**
 * For a class slot: the KG lexicon's classes holding every word of the mention (inflection folded: "breakers" →
 * `Breaker`) come before the label search's vertices, which may be hundreds of instances named after the class.
 */
export async function withClassesFirst(mention: string, result: RetrievalResult, ctx: AgentContext, limit: number): Promise<RetrievalResult> {
  if (!result.ok || !mention.trim()) return result;
  let hits;
  try {
    if (!(await lexiconAffordable(ctx, "entity-linking"))) return result;
    hits = await lookUpTerms(ctx, "entity-linking", mention, { limit, kinds: ["class"] });
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return result;
  }
  const show = (p: string) => compactIri(p, ctx.kg.profile.prefixes);
  const classes: VertexCandidate[] = hits
    .filter((h) => h.score >= STRONG_MATCH)
    .map((h) => ({ iri: h.iri, label: h.display, score: h.score, matched: { name: h.matched.text, via: describeSource(h.matched.source, show) } }));
  if (classes.length === 0) return result;
  const first = new Set(classes.map((c) => c.iri));
  return { ok: true, candidates: [...classes, ...result.candidates.filter((c) => !first.has(c.iri))] };
}
