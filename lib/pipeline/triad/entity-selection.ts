// D-agent, entity selection (Triad §3.2): per entity slot, the KG's label search finds the possible vertices, and the
// LLM keeps up to K of them (no call when there are no more than K). A name no vertex bears exactly may be held as a
// plain value: it also gets the option of the mention as a literal, where the template allows a literal there.
import { NS } from "@/lib/kg/profile";
import { renderPromptPair } from "@/lib/prompts";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import { retrieveCandidates, type VertexCandidate } from "@/lib/pipeline/common/entity-retriever";
import { normalizeLabel } from "@/lib/pipeline/common/labels";
import { matchedNote, namedExactly, withLexiconNames } from "@/lib/pipeline/common/vertex-candidates";
import { fetchHints, formatHint } from "@/lib/pipeline/common/vertex-hints";
import { classSlotsOfEntities, typesOfLinked, withClassesFirst } from "./class-slots";
import { chooseForSlots, renderOptions, type SlotOptions } from "./slot-choice";
import type { EntityFiller, Generalist, SlotCandidates, TriadState } from "./state";
import { templateTriples } from "./template-triples";

/** Options shown per slot (the label search's best): keeps the prompt small when vlimit is large. */
export const MAX_ENTITY_OPTIONS = 20;

/** The slot is the class of a type triple (`?x a <e0>`). */
export function isClassSlot(g: Generalist, slot: string): boolean {
  return templateTriples(g.template.ast.where).some((t) => t.o.kind === "slot" && t.o.id === slot && t.p.kind === "iri" && t.p.iri === `${NS.rdf}type`);
}

/** A literal can stand in an object position or a FILTER, never as a subject or as the class of `a`. */
export function literalAllowed(g: Generalist, slot: string): boolean {
  return !templateTriples(g.template.ast.where).some(
    (t) => (t.s.kind === "slot" && t.s.id === slot) || (t.o.kind === "slot" && t.o.id === slot && t.p.kind === "iri" && t.p.iri === `${NS.rdf}type`),
  );
}

const literalText = (mention: string) => `the text ${JSON.stringify(mention)} as a value`;
/** " — matched "…" via …" when the name that matched is not the one shown (an id, another name, the IRI's local name). */
const matchedText = (c: VertexCandidate) => (matchedNote(c) ? ` — ${matchedNote(c)}` : "");

/** Options for one slot: the top vertices (same-named ones with hints added later), then the literal when allowed. */
function optionsFor(slot: string, mention: string, candidates: VertexCandidate[], withLiteral: boolean): SlotOptions<EntityFiller> {
  const options: SlotOptions<EntityFiller>["options"] = candidates
    .slice(0, MAX_ENTITY_OPTIONS)
    .map((c, i) => ({ n: i + 1, label: c.label, text: c.label + matchedText(c), value: { kind: "iri" as const, iri: c.iri, label: c.label } }));
  if (withLiteral) options.push({ n: options.length + 1, label: literalText(mention), value: { kind: "literal", value: mention } });
  return { slot, options };
}

async function addHints(ctx: AgentContext, pending: SlotOptions<EntityFiller>[]): Promise<void> {
  const shared = pending.flatMap((p) => {
    const counts = new Map<string, number>();
    for (const o of p.options) counts.set(normalizeLabel(o.label), (counts.get(normalizeLabel(o.label)) ?? 0) + 1);
    return p.options.filter((o) => o.value.kind === "iri" && (counts.get(normalizeLabel(o.label)) ?? 0) > 1);
  });
  if (shared.length === 0) return;
  const hints = await fetchHints(ctx, [...new Set(shared.map((o) => (o.value as { iri: string }).iri))]);
  for (const o of shared) o.text = `${o.text ?? o.label}${formatHint(hints.get((o.value as { iri: string }).iri) ?? { types: [] })}`;
}

type Linked = { entities: Record<string, SlotCandidates<EntityFiller>>; failure?: TriadState["failure"] };

/** Candidates for the slots, and the D-agent's choice (one call) where a slot has more than K. */
async function linkSlots(state: TriadState, g: Generalist, ctx: AgentContext, slots: string[]): Promise<Linked> {
  const k = ctx.config.triadEntityCandidates;
  const search = async (slot: string) => {
    const mention = g.mentions[slot];
    const found = await withLexiconNames(mention, await retrieveCandidates(mention, ctx), ctx);
    return isClassSlot(g, slot) ? withClassesFirst(mention, found, ctx, MAX_ENTITY_OPTIONS) : found;
  };
  const searched = await Promise.all(slots.map(async (slot) => ({ slot, result: await search(slot) })));
  const entities: Record<string, SlotCandidates<EntityFiller>> = {};
  const pending: SlotOptions<EntityFiller>[] = [];
  for (const { slot, result } of searched) {
    if (!result.ok) return { entities, failure: { stage: "entity-linking", code: result.code, message: `Could not search the KG for "${g.mentions[slot]}": ${result.error}` } };
    // the literal stands in only where no vertex bears the name itself (then the KG probably holds it as a value)
    const exact = result.candidates.some((c) => namedExactly(c, g.mentions[slot]));
    const options = optionsFor(slot, g.mentions[slot], result.candidates, !exact && literalAllowed(g, slot));
    if (options.options.length <= k) entities[slot] = { found: result.candidates.length, chosen: options.options.map((o) => o.value), auto: true };
    else {
      entities[slot] = { found: result.candidates.length, chosen: [], auto: false };
      pending.push(options);
    }
  }
  if (pending.length) {
    await addHints(ctx, pending);
    const question = state.standaloneQuestion ?? state.question;
    const chosen = await chooseForSlots(ctx, {
      stage: "entity-linking",
      role: "decider",
      k,
      pending,
      prompt: (feedback) =>
        renderPromptPair("triad-entity-selection", {
          k,
          question,
          template: g.template.text,
          slots: pending.map((p) => `Slot ${p.slot}: ${JSON.stringify(g.mentions[p.slot])}\nOptions:\n${renderOptions(p)}`).join("\n\n"),
          feedback: feedback ? `\n\n${feedback}` : "",
        }),
    });
    if (!chosen.ok) return { entities, failure: { stage: "entity-linking", code: "pipeline_failed", message: `The D-agent chose no entities: ${chosen.reason}` } };
    for (const p of pending) entities[p.slot].chosen = chosen.chosen.get(p.slot) ?? [];
  }
  return { entities };
}

/**
 * `{ entities }` (and `miss` when a slot has no filler), or `{ failure }` when the KG could not be searched. A class
 * slot that types an entity slot is filled after it, from that entity's own types (searched like any slot when it
 * has none).
 */
export async function entitySelectionAgent(state: TriadState, ctx: AgentContext): Promise<Partial<TriadState>> {
  const g = state.generalist;
  if (!g) return { failure: { stage: "entity-linking", code: "internal", message: "No template to link." } };
  const slots = g.template.entitySlots;
  const typing = classSlotsOfEntities(g);
  const deferred = slots.filter((s) => typing.has(s) && !typing.has(typing.get(s)!));
  const first = await linkSlots(state, g, ctx, slots.filter((s) => !deferred.includes(s)));
  if (first.failure) return first;
  const entities = first.entities;
  const unfilled: string[] = [];
  for (const slot of deferred) {
    const subject = entities[typing.get(slot)!]?.chosen ?? [];
    const types = await typesOfLinked(ctx, g.mentions[slot], subject, ctx.config.triadEntityCandidates);
    if (types.chosen.length) entities[slot] = { ...types, auto: true };
    else unfilled.push(slot);
  }
  if (unfilled.length) {
    const second = await linkSlots(state, g, ctx, unfilled);
    Object.assign(entities, second.entities);
    if (second.failure) return { entities, failure: second.failure };
  }
  const empty = slots.filter((s) => entities[s].chosen.length === 0);
  if (empty.length === 0) return { entities };
  const names = empty.map((s) => `"${g.mentions[s]}" (<${s}>)`).join(", ");
  const why = empty.some((s) => entities[s].found > 0) ? "no KG entity fits" : "not found in the KG";
  return { entities, miss: `${names}: ${why}` };
}
