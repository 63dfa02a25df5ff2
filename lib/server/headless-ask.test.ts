// A headless run: the strategy's own query when it finishes, the best query of the trace when the budget cuts it off.
import { describe, expect, it } from "vitest";
import type { DerivationEvent, Strategy, StrategyInput, TurnResult } from "@/lib/pipeline/types";
import { DEFAULT_CONFIG } from "@/lib/pipeline/types";
import { askHeadless, bestQueryOf } from "./headless-ask";

const q = (query: string, rows: number, extra: Partial<Extract<DerivationEvent, { type: "sparql" }>> = {}): DerivationEvent => ({ type: "sparql", stage: "execution", purpose: "candidate #1", query, ms: 1, rows, ...extra });
const stats = { ms: 0, llmCalls: 0, tokensIn: 0, tokensOut: 0, queries: 0, stageMs: {} };

/** A strategy that emits `events`, then waits `hangMs` (or until aborted) before returning `sparql`. */
function fake(events: DerivationEvent[], hangMs: number, sparql: string[] = []): Strategy {
  return {
    id: "one-shot-sparql",
    label: "fake",
    description: "fake",
    async *run(input: StrategyInput): AsyncGenerator<DerivationEvent, TurnResult, void> {
      for (const e of events) yield e;
      await new Promise<void>((resolve, reject) => {
        const t = setTimeout(resolve, hangMs);
        input.signal?.addEventListener("abort", () => (clearTimeout(t), reject(new Error("aborted"))));
      });
      return { answer: { kind: "none", reason: "x" }, source: "none", sparql, stats };
    },
  };
}

const ask = (strategy: Strategy, budgetMs: number, signal?: AbortSignal) =>
  askHeadless({ strategy, input: { question: "q", dialogue: [], config: DEFAULT_CONFIG }, deps: {} as never, budgetMs, signal });

describe("bestQueryOf", () => {
  it("prefers the last answer query with rows, then one without error, and ignores label and schema lookups", () => {
    const events = [q("A", 3), q("B", 0), q("C", 0, { error: "boom" }), q("L", 9, { purpose: "answer labels" }), q("S", 9, { stage: "entity-linking", purpose: "classes" })];
    expect(bestQueryOf(events)).toBe("A");
    expect(bestQueryOf(events.filter((e) => e.type === "sparql" && e.query !== "A"))).toBe("B");
    expect(bestQueryOf([q("C", 0, { error: "boom" })])).toBe("C");
    expect(bestQueryOf([q("E", 1, { stage: "explore", purpose: "execute_sparql" }), q("X", 1, { stage: "explore", purpose: "search_entities" })])).toBe("E");
    expect(bestQueryOf([])).toBeNull();
  });
});

describe("askHeadless", () => {
  it("returns the strategy's own first query when it finishes in time", async () => {
    const out = await ask(fake([q("A", 1)], 0, ["FINAL"]), 5_000);
    expect(out).toMatchObject({ ended: "done", query: "FINAL" });
    expect(out.result?.sparql).toEqual(["FINAL"]);
  });

  it("cuts the run at the budget and returns the best query so far", async () => {
    const started = Date.now();
    const out = await ask(fake([q("A", 2), q("B", 0)], 60_000, ["never"]), 150);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(out).toMatchObject({ ended: "budget", query: "A", result: null });
  });

  it("says when the caller went away", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const out = await ask(fake([], 60_000), 10_000, controller.signal);
    expect(out.ended).toBe("aborted");
  });
});
