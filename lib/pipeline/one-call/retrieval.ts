// The retrieval stage of a one-call turn: solved examples from the experience pool, the relevant schema cards within
// the token budget, and the KG entities whose names the question mentions (label search), all for one prompt.
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { RetrievedExample } from "@/lib/pipeline/common/experience";
import type { ExperienceSource } from "@/lib/pipeline/types";
import { selectCards, irisOfSparql, type CardSelection } from "./card-selection";
import { retrieveSolvedExamples } from "./examples";
import { getSchemaCards, type CardCache, type CardLimits, type SchemaCards } from "@/lib/pipeline/common/schema-cards";
import { findEntities } from "./entities";
import type { FoundEntity, OneCallState } from "./state";
import { readKgNotes } from "@/lib/pipeline/common/kg-notes";
import type { KgNotesSource } from "@/lib/pipeline/types";

export { findEntities, nameMentions } from "./entities";

export const STAGE = "retrieval" as const;

/** What the prompt is built from (kept out of the state: the cards are large and shared between turns). */
export interface Retrieved {
  examples: RetrievedExample[];
  cards: SchemaCards;
  selection: CardSelection;
  entities: FoundEntity[];
  /** the KG's notes ("" when none) */
  notes: string;
}

export async function retrievalStage(
  s: OneCallState,
  ctx: AgentContext,
  deps: { cardCache: CardCache; cardLimits?: CardLimits; experience?: ExperienceSource; kgNotes?: KgNotesSource },
): Promise<{ patch: Partial<OneCallState>; retrieved: Retrieved }> {
  const question = s.standaloneQuestion ?? s.question;
  const { examples, ranking, pool } = await retrieveSolvedExamples(deps.experience, ctx, question, ctx.config.oneCallExamples, STAGE, ctx.config.oneCallAimedExamples);
  const { cards, cached } = await getSchemaCards(deps.cardCache, ctx, STAGE, deps.cardLimits);
  const selection = selectCards(cards, question, examples.map((e) => e.sparql), { budget: ctx.config.oneCallCardTokens, topPredicates: ctx.config.oneCallCardPredicates });
  const entities = await findEntities(ctx, question, STAGE);
  const notes = await readKgNotes(deps.kgNotes, ctx, STAGE);
  return {
    patch: {
      examples,
      ranking,
      pool,
      entities,
      cards: { shown: selection.cards.map((c) => ({ ...(c.class ? { class: c.class } : {}), score: c.score, predicates: c.predicates.length })), tokens: selection.tokens, omitted: selection.omitted, total: cards.cards.length, cached },
    },
    retrieved: { examples, cards, selection, entities, notes },
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
