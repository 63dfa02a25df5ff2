// Grouping events per stage card and the timing bar's numbers.
import { describe, expect, it } from "vitest";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { groupByStage, stageTimings } from "./group-events";

const events: DerivationEvent[] = [
  { type: "stage-start", stage: "chat", at: 0 },
  { type: "tool-call", stage: "chat", tool: "ask", input: {} },
  { type: "stage-end", stage: "chat", at: 5, ms: 5, summary: "ok" },
  { type: "stage-start", stage: "qir", at: 5 },
  { type: "warning", stage: "qir", message: "w" },
  { type: "stage-end", stage: "translate", at: 6, ms: 0, summary: "skipped", skipped: true },
];

describe("groupByStage", () => {
  it("makes one group per stage in first-seen order, with start, end and details", () => {
    const g = groupByStage(events);
    expect(g.map((x) => x.stage)).toEqual(["chat", "qir", "translate"]);
    expect(g[0]).toMatchObject({ started: true, end: { summary: "ok" } });
    expect(g[0].details.map((d) => d.type)).toEqual(["tool-call"]);
    expect(g[1].started).toBe(true);
    expect(g[1].end).toBeUndefined();
    expect(g[1].details).toHaveLength(1);
    expect(g[2]).toMatchObject({ started: false, end: { skipped: true } });
  });
  it("puts a stage's events that resume after other stages into a later part at the end", () => {
    const g = groupByStage([
      { type: "stage-start", stage: "chat", at: 0 },
      { type: "llm-call", stage: "chat", call: {} as never },
      { type: "stage-start", stage: "qir", at: 1 },
      { type: "stage-end", stage: "qir", at: 2, ms: 1, summary: "q" },
      { type: "tool-call", stage: "chat", tool: "ask_knowledge_graph", input: {} },
      { type: "stage-end", stage: "chat", at: 3, ms: 3, summary: "asked" },
    ]);
    expect(g.map((x) => x.key)).toEqual(["chat", "qir", "chat:1"]);
    expect(g[0]).toMatchObject({ part: 0, continued: true, started: true });
    expect(g[0].end).toBeUndefined();
    expect(g[2]).toMatchObject({ stage: "chat", part: 1, continued: false, end: { summary: "asked" } });
    expect(g[2].details.map((d) => d.type)).toEqual(["tool-call"]);
  });

  it("is empty for no events", () => {
    expect(groupByStage([])).toEqual([]);
  });
});

describe("stageTimings", () => {
  it("uses the stage-end events (skipped stages left out) while running", () => {
    expect(stageTimings(events)).toEqual([{ stage: "chat", ms: 5 }]);
  });
  it("prefers the finished turn's stats", () => {
    expect(stageTimings(events, { chat: 7, qir: 3 })).toEqual([
      { stage: "chat", ms: 7 },
      { stage: "qir", ms: 3 },
    ]);
    expect(stageTimings(events, {})).toEqual([{ stage: "chat", ms: 5 }]);
  });
});
