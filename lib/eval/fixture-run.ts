// Runs written by hand for the tests (test/fixtures/eval/run-*.json) name their LLM provider "fixture"; the evaluation
// pages then say so, so that a fixture (or a screenshot of one) is never taken for a measurement.
import type { RunResult } from "./result-schema";

export const FIXTURE_PROVIDER = "fixture";

export const FIXTURE_NOTE = "Test fixture: written by hand for the tests. Its scores, timings and costs were never measured.";

export function isFixtureRun(run: Pick<RunResult, "llm">): boolean {
  return run.llm.provider === FIXTURE_PROVIDER;
}
