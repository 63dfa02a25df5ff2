// Groups a turn's derivation events by stage, in the order the stages started (for one card per stage).
import type { DerivationEvent, Stage } from "@/lib/pipeline/types";

export type StageEndEvent = Extract<DerivationEvent, { type: "stage-end" }>;

export interface StageGroup {
  stage: Stage;
  started: boolean;
  end?: StageEndEvent;
  /** llm-call, tool-call, sparql and warning events of this stage, in order */
  details: DerivationEvent[];
}

export function groupByStage(events: DerivationEvent[]): StageGroup[] {
  const groups = new Map<Stage, StageGroup>();
  const get = (stage: Stage) => {
    let g = groups.get(stage);
    if (!g) {
      g = { stage, started: false, details: [] };
      groups.set(stage, g);
    }
    return g;
  };
  for (const e of events) {
    const g = get(e.stage);
    if (e.type === "stage-start") g.started = true;
    else if (e.type === "stage-end") g.end = e;
    else g.details.push(e);
  }
  return [...groups.values()];
}

/** Milliseconds per stage: from the result's stats when finished, else from the stage-end events seen so far. */
export function stageTimings(events: DerivationEvent[], stageMs?: Partial<Record<Stage, number>>): { stage: Stage; ms: number }[] {
  if (stageMs && Object.keys(stageMs).length > 0) {
    return Object.entries(stageMs).map(([stage, ms]) => ({ stage: stage as Stage, ms: ms ?? 0 }));
  }
  return events.filter((e): e is StageEndEvent => e.type === "stage-end" && !e.skipped).map((e) => ({ stage: e.stage, ms: e.ms }));
}
