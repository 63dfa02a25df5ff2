// The onboarding progress as the UI shows it: events applied to the job, the fraction, and the sentences people read.
import { describe, expect, it } from "vitest";
import { jobFraction } from "@/lib/api/onboarding";
import type { OnboardingJob } from "@/lib/kg/onboarding/types";
import { withInserted } from "@/components/insert-text";
import { applyEvent, type ProgressState } from "./onboarding-client";
import { progressSentence } from "./progress-text";

const job = (over: Partial<OnboardingJob> = {}): OnboardingJob => ({
  id: "j",
  kgKey: "k",
  kgName: "Apiaries",
  status: "running",
  phase: "profile",
  done: 0,
  total: 0,
  finishedPhases: [],
  trigger: "added",
  contentHash: "h",
  queries: 0,
  candidates: 0,
  examples: 0,
  skipped: [],
  startedAt: "s",
  updatedAt: "u",
  ...over,
});

describe("onboarding progress", () => {
  it("counts finished phases and the share of the running one", () => {
    expect(jobFraction(job())).toBe(0);
    expect(jobFraction(job({ phase: "examples", finishedPhases: ["profile"], done: 50, total: 100 }))).toBeCloseTo(0.375);
    expect(jobFraction(job({ status: "done", finishedPhases: ["profile", "examples", "questions", "notes"] }))).toBe(1);
  });

  it("applies stream events: steps update the job, a snapshot replaces it, an end clears the step text", () => {
    let s: ProgressState = { known: true, job: job(), error: null };
    s = applyEvent(s, { type: "progress", phase: "examples", done: 3, total: 40, message: "Running count queries" });
    s = applyEvent(s, { type: "example", example: {} as never });
    s = applyEvent(s, { type: "skipped", message: "classes beyond the 40 largest" });
    expect(s.job).toMatchObject({ phase: "examples", done: 3, total: 40, examples: 1, skipped: ["classes beyond the 40 largest"] });
    expect(progressSentence(s.job, "Apiaries", s.message)).toBe("Preparing Apiaries (2 %): Running count queries, 3 of 40. You can ask questions meanwhile.");
    // the profile's steps in the phase's words, not in the step's findings
    const profile = applyEvent({ known: true, job: job(), error: null }, { type: "progress", phase: "profile", done: 1, total: 5, message: "names: 0 (0 name predicate(s))" });
    expect(progressSentence(profile.job, "Apiaries", profile.message)).toBe("Preparing Apiaries (5 %): reading its classes, predicates and names, step 2 of 5. You can ask questions meanwhile.");
    s = applyEvent(s, { type: "end", job: job({ status: "done", examples: 42 }) });
    expect(s.message).toBeUndefined();
    expect(progressSentence(s.job, "Apiaries")).toBe("Apiaries is prepared: 42 example questions.");
  });

  it("says why a preparation stopped, and that chatting still works", () => {
    const failed = job({ status: "failed", error: { code: "kg_timeout", message: "The endpoint did not answer within 10 s" } });
    expect(progressSentence(failed, "Remote")).toBe("The preparation of Remote stopped: The endpoint did not answer within 10 s. Chatting still works.");
    expect(progressSentence(null, "Remote")).toBe("Remote has not been prepared yet.");
  });

  it("appends a name to a question being written, and replaces for a whole question", () => {
    expect(withInserted("", "hive", "append")).toBe("hive");
    expect(withInserted("How many", "hive", "append")).toBe("How many hive");
    expect(withInserted("How many ", "hive", "append")).toBe("How many hive");
    expect(withInserted("How many", "Which hives are there?", "replace")).toBe("Which hives are there?");
  });
});
