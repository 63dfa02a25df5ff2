// The KG menu's "Overview" entry, which is also the small onboarding indicator: a spinner and a percentage while the
// KG in use is being prepared, a warning when its preparation stopped on an error. It opens the KG overview.
"use client";
import { BookOpenIcon, Loader2Icon, TriangleAlertIcon } from "lucide-react";
import { isJobActive, jobFraction } from "@/lib/api/onboarding";
import { Button } from "@/components/ui/button";
import { useOnboardingProgress } from "./onboarding-client";
import { progressSentence } from "./progress-text";

export function OverviewButton({ kgId, kgName, onOpen }: { kgId: string | undefined; kgName?: string; onOpen: () => void }) {
  const { job, known, message } = useOnboardingProgress(kgId);
  const active = isJobActive(job);
  const failed = job?.status === "failed";
  const sentence = known ? progressSentence(job, kgName, message) : undefined;
  return (
    <Button
      size="sm"
      variant="ghost"
      className="md:max-2xl:px-2"
      onClick={onOpen}
      disabled={!kgId}
      data-testid="open-kg-overview"
      data-state={known ? (job?.status ?? "none") : "loading"}
      title={sentence ? `${sentence} Open the KG overview.` : "Open the KG overview"}
      aria-label={`KG overview${sentence ? `: ${sentence}` : ""}`}
    >
      {active ? <Loader2Icon className="animate-spin" aria-hidden /> : failed ? <TriangleAlertIcon className="text-destructive" aria-hidden /> : <BookOpenIcon aria-hidden />}
      {/* in the desktop bar the icon alone below 1536 px (the bar is one row); the phone's settings sheet has room */}
      <span className="md:max-2xl:hidden">Overview</span>
      {active && job && (
        <span className="tabular-nums text-muted-foreground" data-testid="onboarding-percent">
          {Math.round(jobFraction(job) * 100)} %
        </span>
      )}
    </Button>
  );
}
