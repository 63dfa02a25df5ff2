// Matching agent (paper Algorithm 2): link every grounded part of the QIR (entity-linking.ts: vertices, values, classes,
// exclusions; one batched LLM call), then link relations around what was linked.
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { ChattyState, StageFailure } from "../state";
import { entityLinkingAgent } from "./entity-linking";
import { linkRelations } from "./relation-linking";

export { entityLinkingAgent, mentionsOf, workingQuestion } from "./entity-linking";

const noQir: StageFailure = { stage: "relation-linking", code: "internal", message: "No question representation (QIR) to link." };

/** Relation linking only (needs `vertices`, and `literals`/`classes` when the QIR has them): `{ relationPredicates }` or `{ failure }`. */
export async function relationLinkingAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (!state.qir) return { failure: noQir };
  const linked = await linkRelations(state.qir, state.vertices ?? {}, ctx, { literals: state.literals, classes: state.classes, among: state.among });
  return linked.ok ? { relationPredicates: linked.relationPredicates } : { failure: linked.failure };
}

/** Algorithm 2: `{ vertices, literals, classes, excluded, relationPredicates }`, or `{ failure }` (with what was linked so far). */
export async function matchingAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const entities = await entityLinkingAgent(state, ctx);
  if (entities.failure) return entities;
  const relations = await relationLinkingAgent({ ...state, ...entities }, ctx);
  return { ...entities, ...relations };
}
