import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isFixtureRun } from "./fixture-run";
import { runResultSchema } from "./result-schema";

const load = (name: string) => runResultSchema.parse(JSON.parse(readFileSync(`test/fixtures/eval/${name}`, "utf8")));

describe("isFixtureRun", () => {
  it("the hand-written runs under test/fixtures/eval name themselves as fixtures, in the run id and the model", () => {
    for (const name of ["run-a.json", "run-b.json"]) {
      const run = load(name);
      expect(isFixtureRun(run)).toBe(true);
      expect(run.runId).toMatch(/^fixture-/);
      expect(run.llm.model).toMatch(/^fixture/);
    }
  });

  it("a run of a real model, or a replay with no model, is not a fixture", () => {
    const replay = load("run-replay.json");
    expect(isFixtureRun(replay)).toBe(false);
    expect(isFixtureRun({ llm: { provider: "openai", model: "gpt-4o-mini" } })).toBe(false);
    expect(isFixtureRun({ llm: { provider: "oracle", model: "fixture" } })).toBe(false);
  });
});
