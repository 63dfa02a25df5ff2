// D-agent, relation selection (Triad §3.2): in rounds, the relation slots that can be reached from the chosen entities
// (or from relations chosen in an earlier round) get their candidate predicates from the KG, ranked by similarity to
// the slot's words; the LLM keeps up to K per slot (no call when there are no more than K).
import { compactIri } from "@/lib/kg/profile";
import type { KgSchema } from "@/lib/kg/schema";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { isBookkeeping } from "@/lib/pipeline/common/bookkeeping";
import { fetchLabels, localNameWords, normalizeLabel } from "@/lib/pipeline/common/labels";
import { anchoredEnds, discoverRelations, type Found, type Known } from "./relation-discovery";
import { textFiltersOf } from "./text-filters";
import { classesOfNode, declaredBetween, schemaOf, withParents } from "./schema-relations";
import { chooseForSlots, renderOptions, type SlotOptions } from "./slot-choice";
import type { RelationFiller, SlotCandidates, TriadState } from "./state";
import { nodeText, templateTriples, type TTriple } from "./template-triples";

/** Predicates shown per slot (best by similarity to the slot's words). */
export const MAX_RELATION_OPTIONS = 30;
/**
 * Predicates tied with the last one shown are shown too, up to this many in all: where the similarity cannot tell them
 * apart, a cut would keep whichever the KG happened to list first, and two SPARQL engines list them in different orders.
 */
export const MAX_TIED_RELATION_OPTIONS = 60;

/** Label predicates stay candidates (a question may ask for a name or title); other bookkeeping never answers. */
function answers(iri: string, ctx: AgentContext): boolean {
  return ctx.kg.profile.labelPredicates.includes(iri) || !isBookkeeping(iri, ctx);
}

/** Candidates labelled (KG label, else local-name words) and ranked by similarity to the slot's words. */
async function rank(found: Found[], words: string, ctx: AgentContext): Promise<RelationFiller[]> {
  const kept = found.filter((f) => answers(f.iri, ctx));
  if (kept.length === 0) return [];
  const labels = await fetchLabels(ctx, "relation-linking", [...new Set(kept.map((f) => f.iri))], "predicate labels");
  const names = kept.map((f) => labels.get(f.iri) ?? localNameWords(f.iri));
  const scores = await ctx.similarity.scores(words, [...names, ...kept.map((f) => localNameWords(f.iri))]);
  // equal scores in IRI order, not the KG's row order: the same options whatever engine serves the KG
  const ranked = kept
    .map((f, i) => ({ f: { ...f, label: names[i] }, score: Math.max(scores[i] ?? 0, scores[i + kept.length] ?? 0) }))
    // ties: the data's own predicates before the schema's parents, then as written before reversed, then by IRI
    .sort((a, b) => b.score - a.score || Number(!!a.f.covers) - Number(!!b.f.covers) || Number(a.f.reversed) - Number(b.f.reversed) || (a.f.iri < b.f.iri ? -1 : a.f.iri > b.f.iri ? 1 : 0));
  let shown = Math.min(MAX_RELATION_OPTIONS, ranked.length);
  while (shown > 0 && shown < Math.min(MAX_TIED_RELATION_OPTIONS, ranked.length) && ranked[shown].score === ranked[shown - 1].score) shown++;
  return ranked.slice(0, shown).map((x) => x.f);
}

/** Option lines: the label, "[compact IRI]" when labels repeat, "(reversed)" for an edge running the other way. */
function optionsFor(slot: string, ranked: RelationFiller[], prefixes: Record<string, string>): SlotOptions<RelationFiller> {
  const counts = new Map<string, number>();
  for (const r of ranked) counts.set(normalizeLabel(r.label), (counts.get(normalizeLabel(r.label)) ?? 0) + 1);
  const twins = new Set(ranked.filter((r) => ranked.some((x) => x.iri !== r.iri && normalizeLabel(x.label) === normalizeLabel(r.label))).map((r) => r.iri));
  return {
    slot,
    options: ranked.map((r, i) => ({
      n: i + 1,
      label: r.label,
      text: `${r.label}${twins.has(r.iri) ? ` [${compactIri(r.iri, prefixes)}]` : ""}${r.reversed ? " (reversed)" : ""}${r.covers ? ` — with its ${r.covers.length - 1} sub-properties` : ""}`,
      value: r,
    })),
  };
}

const triplesText = (slot: string, triples: TTriple[], mentions: Record<string, string>) =>
  triples
    .filter((t) => t.p.kind === "slot" && t.p.id === slot)
    .map((t) => `${nodeText(t.s, mentions)} <${slot}> ${nodeText(t.o, mentions)}`)
    .join(" ; ");

/** `{ relations }` (and `miss` when a slot has no predicate), or `{ failure }` when the D-agent gave no valid choice. */
export async function relationSelectionAgent(state: TriadState, ctx: AgentContext): Promise<Partial<TriadState>> {
  const g = state.generalist;
  if (!g) return { failure: { stage: "relation-linking", code: "internal", message: "No template to link." } };
  if (ctx.similarity.warning) ctx.emit({ type: "warning", stage: "relation-linking", code: "setup", message: ctx.similarity.warning });
  const k = ctx.config.triadRelationCandidates;
  const triples = templateTriples(g.template.ast.where);
  const entityMentions = Object.fromEntries(g.template.entitySlots.map((s) => [s, g.mentions[s]]));
  const known: Known = {
    entities: Object.fromEntries(Object.entries(state.entities ?? {}).map(([s, c]) => [s, c.chosen])),
    relations: {},
    textFilters: textFiltersOf(g.template.ast.where),
  };
  const relations: Record<string, SlotCandidates<RelationFiller>> = {};
  const question = state.standaloneQuestion ?? state.question;
  let todo = [...g.template.relationSlots];

  while (todo.length) {
    // this round: every slot an anchor reaches now; when none does, the first left over (found anywhere in the KG)
    const reachable = await Promise.all(todo.map(async (slot) => ({ slot, ...(await discoverIfAnchored(slot, triples, known, ctx)) })));
    let round = reachable.filter((r) => r.found !== undefined) as { slot: string; found: Found[] }[];
    if (round.length === 0) round = [{ slot: todo[0], found: (await discoverRelations(todo[0], triples, known, ctx)).found }];
    const pending: SlotOptions<RelationFiller>[] = [];
    const schema = await schemaOf(ctx);
    for (const { slot, found: inData } of round) {
      const found = schema ? throughSchema(slot, inData, triples, known, schema, ctx) : inData;
      const ranked = await rank(found, g.mentions[slot], ctx);
      if (ranked.length <= k) relations[slot] = { found: found.length, chosen: ranked, auto: true };
      else {
        relations[slot] = { found: found.length, chosen: [], auto: false };
        pending.push(optionsFor(slot, ranked, ctx.kg.profile.prefixes));
      }
    }
    if (pending.length) {
      const chosen = await chooseForSlots(ctx, {
        stage: "relation-linking",
        role: "decider",
        k,
        pending,
        prompt: (feedback) =>
          renderPromptPair("triad-relation-selection", {
            k,
            question,
            template: g.template.text,
            slots: pending
              .map((p) => `Slot ${p.slot}: ${JSON.stringify(g.mentions[p.slot])} — in the template: ${triplesText(p.slot, triples, entityMentions)}\nOptions:\n${renderOptions(p)}`)
              .join("\n\n"),
            feedback: feedback ? `\n\n${feedback}` : "",
          }),
      });
      if (!chosen.ok) return { relations, failure: { stage: "relation-linking", code: "pipeline_failed", message: `The D-agent chose no relations: ${chosen.reason}` } };
      for (const p of pending) relations[p.slot].chosen = chosen.chosen.get(p.slot) ?? [];
    }
    for (const { slot } of round) known.relations[slot] = relations[slot].chosen;
    const empty = round.filter(({ slot }) => relations[slot].chosen.length === 0).map(({ slot }) => slot);
    if (empty.length) {
      const names = empty.map((s) => `"${g.mentions[s]}" (<${s}>)`).join(", ");
      return { relations, miss: `no KG predicate fits ${names} (${empty.map((s) => `${relations[s].found} found`).join(", ")})` };
    }
    todo = todo.filter((s) => !round.some((r) => r.slot === s));
  }
  return { relations };
}

/**
 * The data's predicates for a slot with their schema parents; when the data has none, the properties the schema
 * declares between the classes the slot's ends are given.
 */
function throughSchema(slot: string, found: Found[], triples: TTriple[], known: Known, schema: KgSchema, ctx: AgentContext): Found[] {
  // a class's instances always have a type: that alone is no relation the data offers
  if (found.some((f) => answers(f.iri, ctx) && !ctx.kg.profile.typePredicates.includes(f.iri))) return withParents(found, schema);
  const own = triples.filter((t) => t.p.kind === "slot" && t.p.id === slot);
  const declared = own.flatMap((t) => declaredBetween(classesOfNode(t.s, triples, known), classesOfNode(t.o, triples, known), schema));
  const seen = new Set(declared.map((f) => `${f.iri} ${f.reversed}`));
  return withParents([...declared, ...found.filter((f) => !seen.has(`${f.iri} ${f.reversed}`))], schema);
}

/** Discovers a slot's predicates when an anchor reaches it now; `found` undefined when nothing anchors it yet. */
async function discoverIfAnchored(slot: string, triples: TTriple[], known: Known, ctx: AgentContext): Promise<{ found?: Found[] }> {
  const own = triples.filter((t) => t.p.kind === "slot" && t.p.id === slot);
  if (!own.some((t) => anchoredEnds(t, triples, known).length > 0)) return {};
  return { found: (await discoverRelations(slot, triples, known, ctx)).found };
}
