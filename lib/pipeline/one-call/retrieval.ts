// The retrieval stage of a one-call turn: solved examples from the experience pool, the relevant schema cards within
// the token budget, and the KG entities whose names the question mentions (label search), all for one prompt.
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { RetrievedExample } from "@/lib/pipeline/common/experience";
import type { ExperienceSource } from "@/lib/pipeline/types";
import { toAppError } from "@/lib/errors";
import { selectCards, irisOfSparql, type CardSelection } from "./card-selection";
import { retrieveSolvedExamples } from "./examples";
import { getSchemaCards, type CardCache, type CardLimits, type SchemaCards } from "@/lib/pipeline/common/schema-cards";
import type { FoundEntity, OneCallState } from "./state";

export const STAGE = "retrieval" as const;
const MENTIONS = 4;
const HITS_PER_MENTION = 3;

/** What the prompt is built from (kept out of the state: the cards are large and shared between turns). */
export interface Retrieved {
  examples: RetrievedExample[];
  cards: SchemaCards;
  selection: CardSelection;
  entities: FoundEntity[];
}

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

/** KG entities named in the question (label search per name mention, a few hits each). */
export async function findEntities(ctx: AgentContext, question: string): Promise<FoundEntity[]> {
  const out: FoundEntity[] = [];
  for (const mention of nameMentions(question)) {
    try {
      const hits = await ctx.searchLabels(STAGE, mention, { limit: HITS_PER_MENTION });
      ctx.emit({ type: "tool-call", stage: STAGE, tool: "label-search", input: { mention }, output: { count: hits.length, top: hits.slice(0, HITS_PER_MENTION) } });
      for (const h of hits.slice(0, HITS_PER_MENTION)) if (!out.some((e) => e.iri === h.iri)) out.push({ mention, iri: h.iri, label: h.label });
    } catch (e) {
      // an entity hint is a help: a failed search costs the hint, not the turn
      const err = toAppError(e);
      if (err.code === "aborted" || ctx.signal?.aborted) throw err;
      ctx.emit({ type: "tool-call", stage: STAGE, tool: "label-search", input: { mention }, error: err.message });
    }
  }
  return out;
}

export async function retrievalStage(
  s: OneCallState,
  ctx: AgentContext,
  deps: { cardCache: CardCache; cardLimits?: CardLimits; experience?: ExperienceSource },
): Promise<{ patch: Partial<OneCallState>; retrieved: Retrieved }> {
  const question = s.standaloneQuestion ?? s.question;
  const { examples, ranking, pool } = await retrieveSolvedExamples(deps.experience, ctx, question, ctx.config.oneCallExamples, STAGE);
  const { cards, cached } = await getSchemaCards(deps.cardCache, ctx, STAGE, deps.cardLimits);
  const selection = selectCards(cards, question, examples.map((e) => e.sparql), { budget: ctx.config.oneCallCardTokens, topPredicates: ctx.config.oneCallCardPredicates });
  const entities = await findEntities(ctx, question);
  return {
    patch: {
      examples,
      ranking,
      pool,
      entities,
      cards: { shown: selection.cards.map((c) => ({ ...(c.class ? { class: c.class } : {}), score: c.score, predicates: c.predicates.length })), tokens: selection.tokens, omitted: selection.omitted, total: cards.cards.length, cached },
    },
    retrieved: { examples, cards, selection, entities },
  };
}

/** Every IRI the prompt shows: the examples' queries, the cards, the entities found, the conversation's <IRIs>. */
export function promptIris(r: Retrieved, context: string): Set<string> {
  const known = new Set<string>();
  for (const e of r.examples) for (const i of irisOfSparql(e.sparql)) known.add(i);
  for (const card of r.cards.cards) {
    if (card.class) known.add(card.class);
    for (const p of card.predicates) {
      known.add(p.iri);
      for (const range of p.ranges) if (range.iri) known.add(range.iri);
      if (p.example?.type === "uri") known.add(p.example.value);
    }
  }
  for (const e of r.entities) known.add(e.iri);
  for (const m of context.matchAll(/<([a-z][\w+.-]*:[^<>"{}|^`\\\s]+)>/gi)) known.add(m[1]);
  return known;
}
