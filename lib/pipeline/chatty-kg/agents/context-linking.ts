// Context linking (no LLM): a mention that is the label of an entity a previous answer named is that entity.
import type { Answer, AnswerItem, DialogueTurn, PipelineConfig } from "@/lib/pipeline/types";
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { LinkedVertex } from "../state";
import { hasDialogueContext } from "@/lib/pipeline/common/dialogue-context";
import type { VertexCandidate } from "@/lib/pipeline/common/entity-retriever";
import { askQuery, bgp, namedNode, stringify, triple, variable } from "@/lib/pipeline/common/sparql-ast";
import { normalizeLabel } from "@/lib/pipeline/common/labels";

export interface ContextEntity {
  iri: string;
  label: string;
}

/** The items of an answer the Chat agent was shown: the first L items, or every cell of a table's first L rows. */
function shownItems(answer: Answer | null, limit: number): AnswerItem[] {
  if (answer?.kind === "items") return answer.items.slice(0, limit);
  if (answer?.kind === "table") return answer.rows.slice(0, limit).flatMap((r) => r.filter((c): c is AnswerItem => c !== null));
  return [];
}

/**
 * Distinct IRIs whose label in a previous answer equals the mention (normalised). Only what the Chat agent was shown
 * counts: multi-turn mode, the first L (answerLimit) items (table rows) of each answer.
 */
export function contextEntitiesFor(
  mention: string,
  dialogue: readonly DialogueTurn[],
  config: Pick<PipelineConfig, "mode" | "answerLimit">,
): ContextEntity[] {
  if (!hasDialogueContext(dialogue, config.mode)) return [];
  const wanted = normalizeLabel(mention);
  if (!wanted) return [];
  const found = new Map<string, ContextEntity>();
  for (const turn of dialogue) {
    for (const item of shownItems(turn.answer, config.answerLimit)) {
      if (item.type === "uri" && item.label && normalizeLabel(item.label) === wanted && !found.has(item.value)) {
        found.set(item.value, { iri: item.value, label: item.label });
      }
    }
  }
  return [...found.values()];
}

/** Is the IRI in the KG? Among the label-search candidates (free), else one ASK; any doubt means no. */
async function inKg(iri: string, candidates: VertexCandidate[], ctx: AgentContext): Promise<boolean> {
  if (candidates.some((c) => c.iri === iri)) return true;
  try {
    const query = stringify(askQuery([bgp([triple(namedNode(iri), variable("p"), variable("o"))])]));
    const r = await ctx.sparql("entity-linking", "is the entity from the dialogue in the KG?", query);
    return r.kind === "ASK" && r.boolean;
  } catch (e) {
    if (ctx.signal?.aborted) throw e;
    return false;
  }
}

/** The vertex for `mention` taken from the dialogue, when exactly one previous-answer entity matches and it is in the KG. */
export async function linkFromContext(
  mention: string,
  candidates: VertexCandidate[],
  dialogue: readonly DialogueTurn[],
  ctx: AgentContext,
): Promise<LinkedVertex | undefined> {
  const matches = contextEntitiesFor(mention, dialogue, ctx.config);
  // several entities of the dialogue share the label: the LLM (or an exact match) must decide
  if (matches.length !== 1) return undefined;
  const [m] = matches;
  if (!(await inKg(m.iri, candidates, ctx))) return undefined;
  const label = candidates.find((c) => c.iri === m.iri)?.label ?? m.label;
  return { mention, iri: m.iri, label, candidates: candidates.length, how: "context" };
}
