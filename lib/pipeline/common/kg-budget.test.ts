// The turn's KG budget through the agent context: queries and KG time counted on a fake clock, a query's timeout
// capped by what is left, calls refused once it is spent, and every cut shown as one warning under the step it cut.
import { describe, expect, it } from "vitest";
import { AppError, isAppError } from "@/lib/errors";
import type { KnowledgeGraph, QueryOptions } from "@/lib/kg/types";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createLexicalSimilarity } from "@/lib/embeddings/lexical";
import { DEFAULT_CONFIG, type DerivationEvent } from "@/lib/pipeline/types";
import { createFixtureKg } from "@/test/fixtures/kg/harness";
import { createAgentContext } from "./agent-context";
import { createKgBudget, isKgTimeout } from "./kg-budget";

/** A KG that takes `costMs` of fake time per call and records the timeout each call was given; "slow" queries time out. */
function fakeKg(clock: { t: number }, costMs: number) {
  const base = createFixtureKg();
  const timeouts: (number | undefined)[] = [];
  const call = async <T>(q: string, o: QueryOptions | undefined, run: () => Promise<T>): Promise<T> => {
    timeouts.push(o?.timeoutMs);
    if (/slow/.test(q) || costMs > (o?.timeoutMs ?? Infinity)) {
      clock.t += o?.timeoutMs ?? 0;
      throw new AppError("kg_timeout", `did not answer within ${o?.timeoutMs} ms`);
    }
    clock.t += costMs;
    return run();
  };
  const kg: KnowledgeGraph = {
    ...base,
    query: (q, o) => call(q, o, () => base.query(q)),
    searchLabels: (text, o) => call(text, o, () => base.searchLabels(text, o)),
  };
  return { kg, timeouts };
}

function context(kg: KnowledgeGraph, clock: { t: number }, budget: { queries: number; ms: number }) {
  const events: DerivationEvent[] = [];
  const ctx = createAgentContext({
    kg,
    llm: createScriptedLlm().gateway,
    similarity: createLexicalSimilarity(),
    config: { ...DEFAULT_CONFIG, queryTimeoutMs: 5_000 },
    now: () => clock.t,
    emit: (e) => events.push(e),
    budget,
  });
  const warnings = () => events.filter((e): e is Extract<DerivationEvent, { type: "warning" }> => e.type === "warning");
  return { ctx, events, warnings };
}

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    if (isAppError(e)) return e;
    throw e;
  }
  throw new Error("expected a failure");
}

const ASK = "ASK { ?s ?p ?o }";

describe("the turn's KG budget", () => {
  it("refuses the call after the last allowed query, with one warning per step saying what was not run", async () => {
    const clock = { t: 0 };
    const { kg } = fakeKg(clock, 10);
    const { ctx, warnings, events } = context(kg, clock, { queries: 2, ms: 60_000 });
    await ctx.sparql("relation-linking", "first", ASK);
    await ctx.searchLabels("entity-linking", "Rowling", { limit: 5 });
    const refused = await failure(ctx.sparql("relation-linking", "predicates around a sample", ASK));
    expect(refused.code).toBe("kg_timeout");
    expect(isKgTimeout(refused)).toBe(true);
    await failure(ctx.sparql("relation-linking", "another", ASK));
    await failure(ctx.sparql("execution", "candidate #1", ASK));
    expect(warnings().map((w) => [w.stage, w.code])).toEqual([
      ["relation-linking", "budget"],
      ["execution", "budget"],
    ]);
    expect(warnings()[0].message).toBe("The turn has used its 2 KG queries: predicates around a sample was not run, so this step goes on with what it found so far.");
    // the refused query is in the derivation too, with its error
    expect(events.filter((e) => e.type === "sparql" && e.error).map((e) => (e as { purpose: string }).purpose)).toEqual(["predicates around a sample", "another", "candidate #1"]);
    expect(ctx.budget.used()).toEqual({ queries: 2, ms: 20 });
  });

  it("gives each query at most the KG time left, and refuses once the time is spent", async () => {
    const clock = { t: 0 };
    const { kg, timeouts } = fakeKg(clock, 4_000);
    const { ctx, warnings } = context(kg, clock, { queries: 100, ms: 6_000 });
    await ctx.sparql("execution", "candidate #1", ASK); // 4 s of 6
    const cut = await failure(ctx.sparql("execution", "candidate #2", ASK)); // 2 s left: stopped there
    expect(cut.code).toBe("kg_timeout");
    expect(timeouts).toEqual([5_000, 2_000]);
    expect(warnings()[0]).toMatchObject({ stage: "execution", code: "budget", message: "Candidate #2 was stopped at the 2 s left of the turn's KG time: this step goes on with fewer candidates, or fails if it has none." });
    await failure(ctx.sparql("execution", "candidate #3", ASK));
    expect(timeouts).toHaveLength(2); // refused without a call
    expect(warnings().map((w) => w.message)).toContain("The turn has used its 6 s of KG time: candidate #3 was not run, so this step goes on with what it found so far.");
  });

  it("reports a query stopped at its own timeout, and leaves the once-per-KG builds outside the budget", async () => {
    const clock = { t: 0 };
    const { kg } = fakeKg(clock, 10);
    const { ctx, warnings } = context(kg, clock, { queries: 1, ms: 60_000 });
    await failure(ctx.sparql("relation-linking", "a slow sample", "ASK { ?slow ?p ?o }"));
    expect(warnings()[0].message).toBe("A slow sample was stopped at its time limit (5 s): this step goes on with fewer candidates, or fails if it has none.");
    // the budget is spent now; a lexicon build's query still runs (a build cut short would be tried again every turn)
    expect((await ctx.sparql("entity-linking", "lexicon: names", ASK, { perKgBuild: true })).kind).toBe("ASK");
    expect(ctx.budget.used().queries).toBe(1);
  });

  it("counts a budget directly, on a fake clock", async () => {
    let t = 0;
    const cuts: string[] = [];
    const budget = createKgBudget({ queries: 10, ms: 1_000 }, { now: () => t, onCut: (c) => cuts.push(`${c.reason}@${c.where}`) });
    expect(await budget.run("a", 300, async (ms) => ((t += 600), ms))).toBe(300);
    expect(await budget.run("b", 300, async (ms) => ((t += 100), ms))).toBe(300);
    expect(await budget.run("c", 5_000, async (ms) => ms, "execution")).toBe(300); // 300 ms left
    expect(cuts).toEqual([]);
    await budget.run("d", 300, async () => ((t += 400), 0), "plan");
    expect(budget.used()).toEqual({ queries: 4, ms: 1_100 });
    await expect(budget.run("e", 300, async () => 0, "plan")).rejects.toMatchObject({ code: "kg_timeout", details: { budget: true } });
    expect(cuts).toEqual(["budget@plan"]);
  });
});
