// The overview's preparation line: where the onboarding of the KG is (in words, with a bar while it runs), what the
// bounds left out, and Stop / Resume / "Prepare this KG". For an endpoint, "Prepare this KG" is how the user says its
// data changed (there is no file content to compare).
"use client";
import { useState } from "react";
import { Loader2Icon, PlayIcon, RefreshCwIcon, SquareIcon, TriangleAlertIcon } from "lucide-react";
import { isJobActive, jobFraction } from "@/lib/api/onboarding";
import { Button } from "@/components/ui/button";
import { Progress } from "@/components/ui/progress";
import { onboardingApi, setJob, type ProgressState } from "@/components/onboarding/onboarding-client";
import { progressSentence } from "@/components/onboarding/progress-text";

export function StatusBar({ kgId, kgName, kind, progress }: { kgId: string; kgName: string; kind?: string; progress: ProgressState }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { job } = progress;
  const active = isJobActive(job);
  const resumable = job?.status === "cancelled" || job?.status === "failed";

  const run = async (what: "start" | "resume" | "rerun" | "cancel") => {
    setBusy(true);
    setError(null);
    try {
      const r = what === "cancel" ? await onboardingApi.cancel(kgId) : await onboardingApi.act(kgId, what);
      setJob(kgId, r.job);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-1.5 text-sm" data-testid="overview-status" data-state={progress.known ? (job?.status ?? "none") : "loading"}>
      <div className="flex flex-wrap items-center gap-2">
        <p className={job?.status === "failed" ? "flex min-w-0 flex-1 items-start gap-1.5 text-destructive" : "flex min-w-0 flex-1 items-start gap-1.5 text-muted-foreground"} role="status">
          {job?.status === "failed" ? (
            <TriangleAlertIcon className="mt-0.5 size-4 shrink-0" aria-hidden />
          ) : active ? (
            <Loader2Icon className="mt-0.5 size-4 shrink-0 animate-spin" aria-hidden />
          ) : null}
          <span data-testid="overview-status-text">
            {progress.known ? progressSentence(job, kgName, progress.message) : "Checking how far this KG is prepared…"}
            {resumable && " Resume continues where it stopped; Prepare this KG starts over."}
          </span>
        </p>
        {active ? (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void run("cancel")} data-testid="onboarding-cancel">
            <SquareIcon /> Stop
          </Button>
        ) : (
          <>
            {resumable && (
              <Button size="sm" disabled={busy} onClick={() => void run("resume")} data-testid="onboarding-resume" title="Continue from the step where it stopped (what it finished is kept)">
                <PlayIcon /> Resume
              </Button>
            )}
            <Button
              size="sm"
              variant={!job || job.status === "stale" ? "default" : "outline"}
              disabled={busy || !progress.known}
              onClick={() => void run(job ? "rerun" : "start")}
              data-testid="onboarding-prepare"
              title={
                kind === "endpoint"
                  ? "Read the endpoint again and rebuild the examples: use it when its data changed"
                  : "Read the KG again and rebuild its profile, examples and notes (kept examples and your notes stay)"
              }
            >
              <RefreshCwIcon /> Prepare this KG
            </Button>
          </>
        )}
      </div>
      {active && job && <Progress value={Math.round(jobFraction(job) * 100)} className="h-1.5" aria-label={`Preparing ${kgName}`} />}
      {error && (
        <p role="alert" className="text-xs text-destructive">
          {error}
        </p>
      )}
      {job && job.skipped.length > 0 && (
        <details className="text-xs text-muted-foreground" data-testid="overview-skipped">
          <summary className="cursor-pointer">Left out to stay within the time and query bounds ({job.skipped.length})</summary>
          <ul className="mt-1 list-disc pl-5">
            {job.skipped.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ul>
        </details>
      )}
    </div>
  );
}
