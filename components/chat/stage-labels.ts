// Human names of the pipeline stages, and which stage a running turn is in (from its streamed events).
import { STAGES, type DerivationEvent, type Stage } from "@/lib/pipeline/types";

export const STAGE_LABELS: Record<Stage, string> = {
  chat: "Chat agent",
  translate: "Translation",
  classify: "Classification",
  rephrase: "Rephrasing",
  qir: "Question representation",
  plan: "Plan",
  explore: "Exploration",
  "entity-linking": "Entity linking",
  "relation-linking": "Relation linking",
  "query-generation": "Query generation",
  "query-selection": "Query selection",
  execution: "Execution",
  induction: "Database and passages",
  // one-call retrieves solved examples, schema cards and entities here; RAGONITE runs its SQL and fact searches
  retrieval: "Retrieval",
  answer: "Answer",
};

/** The stage started last and not yet ended, or null. */
export function currentStage(events: DerivationEvent[]): Stage | null {
  const open = new Set<Stage>();
  let last: Stage | null = null;
  for (const e of events) {
    if (e.type === "stage-start") {
      open.add(e.stage);
      last = e.stage;
    } else if (e.type === "stage-end") open.delete(e.stage);
  }
  if (last && open.has(last)) return last;
  const remaining = [...open];
  return remaining.length ? remaining[remaining.length - 1] : null;
}

export function stagesDone(events: DerivationEvent[]): number {
  return new Set(events.filter((e) => e.type === "stage-end").map((e) => e.stage)).size;
}

export const STAGE_COUNT = STAGES.length;
