// Groups a turn's derivation events by stage, in the order the stages started (for one card per stage).
import type { DerivationEvent, Stage } from "@/lib/pipeline/types";

export type StageEndEvent = Extract<DerivationEvent, { type: "stage-end" }>;

export interface StageGroup {
  /** unique per card: the stage, or "stage:n" for a later part */
  key: string;
  stage: Stage;
  /** 0 for a stage's first card; n for the part its events started again after other stages (the Chat agent's tool result) */
  part: number;
  /** a later part of this stage follows further down */
  continued: boolean;
  started: boolean;
  end?: StageEndEvent;
  /** llm-call, tool-call, sparql and warning events of this stage, in order */
  details: DerivationEvent[];
}

/**
 * One group per stage in the order events arrive. A stage whose events resume after other stages ran (the Chat agent
 * wraps the KG pipeline and ends last) gets a new group at the end, so the list only ever grows at the bottom.
 */
export function groupByStage(events: DerivationEvent[]): StageGroup[] {
  const groups: StageGroup[] = [];
  const latest = new Map<Stage, StageGroup>();
  let last: StageGroup | undefined;
  for (const e of events) {
    let g = latest.get(e.stage);
    if (!g || g !== last) {
      const part = g ? g.part + 1 : 0;
      if (g) g.continued = true;
      g = { key: part ? `${e.stage}:${part}` : e.stage, stage: e.stage, part, continued: false, started: false, details: [] };
      latest.set(e.stage, g);
      groups.push(g);
    }
    last = g;
    if (e.type === "stage-start") g.started = true;
    else if (e.type === "stage-end") g.end = e;
    else g.details.push(e);
  }
  return groups;
}

/** Milliseconds per stage: from the result's stats when finished, else from the stage-end events seen so far. */
export function stageTimings(events: DerivationEvent[], stageMs?: Partial<Record<Stage, number>>): { stage: Stage; ms: number }[] {
  if (stageMs && Object.keys(stageMs).length > 0) {
    return Object.entries(stageMs).map(([stage, ms]) => ({ stage: stage as Stage, ms: ms ?? 0 }));
  }
  return events.filter((e): e is StageEndEvent => e.type === "stage-end" && !e.skipped).map((e) => ({ stage: e.stage, ms: e.ms }));
}
