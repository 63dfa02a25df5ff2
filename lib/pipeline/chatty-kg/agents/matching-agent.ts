// Matching agent (paper Algorithm 2): link every QIR entity to a vertex (concurrently, one batched LLM call), then link relations.
import type { AgentContext } from "@/lib/pipeline/common/agent-context";
import type { ChattyState, LinkedVertex, Qir, StageFailure } from "../state";
import { linkFromContext } from "./context-linking";
import { retrieveCandidates } from "@/lib/pipeline/common/entity-retriever";
import { linkRelations, isVariable } from "./relation-linking";
import { selectVertices, type MentionCandidates } from "./vertex-selection";

/** The question the agents reason about: the standalone rewrite, else the English text, else what was typed. */
export function workingQuestion(state: ChattyState): string {
  return state.standaloneQuestion ?? state.englishQuestion ?? state.question;
}

/** QIR entities plus any non-variable triple end the QIR forgot to list, in order, without duplicates. */
export function mentionsOf(qir: Qir): string[] {
  const all = [...qir.entities, ...qir.triples.flatMap((t) => [t.subject, t.object])];
  return [...new Set(all.map((m) => m.trim()).filter((m) => m && !isVariable(m, qir)))];
}

const noQir: StageFailure = { stage: "entity-linking", code: "internal", message: "No question representation (QIR) to link." };

/** Entity linking only: `{ vertices }` or `{ failure }`. */
export async function entityLinkingAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (!state.qir) return { failure: noQir };
  const mentions = mentionsOf(state.qir);
  // a vertex the user chose when correcting an earlier attempt (rerun.ts) stays; only the other mentions are linked
  const byUser = Object.fromEntries(Object.entries(state.vertices ?? {}).filter(([m, v]) => v.how === "user" && mentions.includes(m)));
  const searched = mentions.filter((m) => !byUser[m]);
  const retrieved = await Promise.all(searched.map(async (mention) => ({ mention, result: await retrieveCandidates(mention, ctx) })));
  const items: MentionCandidates[] = [];
  const fromContext: Record<string, LinkedVertex> = {};
  for (const { mention, result } of retrieved) {
    // the KG's own code (kg_timeout, kg_unreachable …): the UI and the benchmarks attribute the failure to the KG
    if (!result.ok) return { failure: { stage: "entity-linking", code: result.code, message: `Could not search the KG for "${mention}": ${result.error}` } };
    // the user names an entity we just answered with: link it directly, no vertex-selection call
    const linked = await linkFromContext(mention, result.candidates, state.dialogue, ctx);
    if (linked) fromContext[mention] = linked;
    else items.push({ mention, candidates: result.candidates });
  }
  const selection = await selectVertices(workingQuestion(state), items, ctx);
  if (!selection.ok) return { failure: selection.failure };
  const all = { ...byUser, ...fromContext, ...selection.vertices };
  // in mention order, as the QIR lists them
  return { vertices: Object.fromEntries(mentions.filter((m) => all[m]).map((m) => [m, all[m]])) };
}

/** Relation linking only (needs `vertices`): `{ relationPredicates }` or `{ failure }`. */
export async function relationLinkingAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  if (!state.qir) return { failure: { ...noQir, stage: "relation-linking" } };
  const linked = await linkRelations(state.qir, state.vertices ?? {}, ctx);
  return linked.ok ? { relationPredicates: linked.relationPredicates } : { failure: linked.failure };
}

/** Algorithm 2: `{ vertices, relationPredicates }`, or `{ failure }` (with the vertices found so far, for the trace). */
export async function matchingAgent(state: ChattyState, ctx: AgentContext): Promise<Partial<ChattyState>> {
  const entities = await entityLinkingAgent(state, ctx);
  if (entities.failure) return entities;
  const relations = await relationLinkingAgent({ ...state, ...entities }, ctx);
  return { ...entities, ...relations };
}
