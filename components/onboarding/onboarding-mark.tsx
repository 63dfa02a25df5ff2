// The phone header's onboarding mark, beside the KG in use: a spinner and the percentage while the KG is being
// prepared, a warning when its preparation stopped on an error, nothing otherwise (the Overview entry with the same
// indicator is inside the settings sheet there, out of sight).
"use client";
import { Loader2Icon, TriangleAlertIcon } from "lucide-react";
import { isJobActive, jobFraction } from "@/lib/api/onboarding";
import type { ProgressState } from "./onboarding-client";

/** What the mark says, for the label of the button it sits in ("" when it shows nothing). */
export function onboardingMarkLabel({ job }: ProgressState): string {
  if (job && isJobActive(job)) return `, being prepared (${Math.round(jobFraction(job) * 100)} %)`;
  if (job?.status === "failed") return ", its preparation stopped";
  return "";
}

export function OnboardingMark({ progress }: { progress: ProgressState }) {
  const { job } = progress;
  if (job && isJobActive(job)) {
    return (
      <span className="flex shrink-0 items-center gap-0.5 tabular-nums text-muted-foreground" data-testid="phone-onboarding" data-state={job.status}>
        <Loader2Icon className="size-3 animate-spin" aria-hidden />
        {Math.round(jobFraction(job) * 100)} %
      </span>
    );
  }
  if (job?.status === "failed") {
    return (
      <span className="flex shrink-0 items-center" data-testid="phone-onboarding" data-state="failed">
        <TriangleAlertIcon className="size-3.5 text-destructive" aria-hidden />
      </span>
    );
  }
  return null;
}
