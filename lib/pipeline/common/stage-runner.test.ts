import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import { createScriptedLlm } from "@/lib/llm/testing/scripted-model";
import { createFixtureKg, createTestContext } from "@/test/fixtures/kg/harness";
import { createStageRunner, type StageFailure } from "./stage-runner";

interface S {
  n: number;
  failure?: StageFailure;
}

describe("createStageRunner", () => {
  const setup = () => {
    const t = createTestContext({ kg: createFixtureKg(), llm: createScriptedLlm().gateway });
    const run = createStageRunner<S>({ n: 1 }, t.ctx, (stage, s) => ({ summary: s.failure ? `failed: ${s.failure.message}` : `n=${s.n}` }));
    return { ...t, run };
  };

  it("merges each stage's patch and reports it with the strategy's own summary", async () => {
    const { run, events } = setup();
    await run.run("qir", async (s) => ({ n: s.n + 1 }));
    run.skip("translate", "not needed");
    expect(run.state.n).toBe(2);
    expect(events.map((e) => e.type)).toEqual(["stage-start", "stage-end", "stage-end"]);
    expect(events[1]).toMatchObject({ stage: "qir", summary: "n=2" });
    expect(events[2]).toMatchObject({ stage: "translate", skipped: true, summary: "not needed" });
    expect(run.stageMs.qir).toBeGreaterThanOrEqual(0);
  });

  it("turns an error thrown in a stage into the state's failure at that stage, but lets an abort through", async () => {
    const { run, events } = setup();
    await run.run("execution", async () => {
      throw new AppError("kg_timeout", "too slow");
    });
    expect(run.state.failure).toEqual({ stage: "execution", code: "kg_timeout", message: "too slow" });
    expect(events.at(-1)).toMatchObject({ type: "stage-end", summary: "failed: too slow" });
    await expect(run.run("answer", async () => Promise.reject(new AppError("aborted", "stopped")))).rejects.toThrow("stopped");
  });
});
