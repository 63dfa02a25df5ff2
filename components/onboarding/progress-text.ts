// The onboarding progress in words, the same wherever it is shown (header indicator, start page, overview).
import { jobFraction, type OnboardingJob } from "@/lib/api/onboarding";

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

const PHASE_WORDS: Record<OnboardingJob["phase"], string> = {
  profile: "reading its classes, predicates and names",
  examples: "building and running example queries",
  questions: "writing the example questions",
  notes: "writing the KG notes",
};

/** What the running phase is doing, with its count when it has one ("building and running example queries, 40 of 120"). */
export function phaseText(job: OnboardingJob, message?: string): string {
  const count = job.total > 0 ? `, ${job.done.toLocaleString("en")} of ${job.total.toLocaleString("en")}` : "";
  // the profile's step lines say what a step found ("names: 0 (0 name predicate(s))"): the phase's words read better
  if (job.phase === "profile") return `${PHASE_WORDS.profile}${job.total > 0 ? `, step ${Math.min(job.done + 1, job.total)} of ${job.total}` : ""}`;
  return `${message?.trim() || PHASE_WORDS[job.phase]}${count}`;
}

export const percent = (job: OnboardingJob) => `${Math.round(jobFraction(job) * 100)} %`;

/** One sentence: what the preparation of the KG is doing, or how it ended. */
export function progressSentence(job: OnboardingJob | null, kgName = "this KG", message?: string): string {
  if (!job) return `${kgName} has not been prepared yet.`;
  switch (job.status) {
    case "queued":
      return `Preparing ${kgName} soon: another KG is being prepared first. You can ask questions meanwhile.`;
    case "running":
      return `Preparing ${kgName} (${percent(job)}): ${phaseText(job, message)}. You can ask questions meanwhile.`;
    case "done":
      return `${kgName} is prepared: ${plural(job.examples, "example question")}.`;
    case "cancelled":
      return `The preparation of ${kgName} was stopped${job.examples ? ` (${plural(job.examples, "example")} kept)` : ""}.`;
    case "stale":
      return `${kgName} changed since it was prepared: prepare it again from the KG overview.`;
    case "failed":
      return `The preparation of ${kgName} stopped: ${ensureStop(job.error?.message ?? "something went wrong")} Chatting still works.`;
  }
}

function ensureStop(s: string): string {
  const t = s.trim();
  return /[.!?]$/.test(t) ? t : `${t}.`;
}
