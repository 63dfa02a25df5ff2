// The start page's suggested questions: 4–6 chips drawn from the generated examples of the KG in use. Until that KG's
// examples exist it shows how far its preparation is (never another KG's questions); a failed preparation says why.
"use client";
import { useEffect, useState } from "react";
import { Loader2Icon, SparklesIcon, TriangleAlertIcon } from "lucide-react";
import { isJobActive, jobFraction, type Suggestion } from "@/lib/api/onboarding";
import { Progress } from "@/components/ui/progress";
import { onboardingApi, useOnboardingProgress, type ProgressState } from "./onboarding-client";
import { progressSentence } from "./progress-text";

export interface SuggestedQuestionsProps {
  kgId: string | undefined;
  kgName?: string;
  onAsk: (question: string) => void;
  canAsk: boolean;
  /** why the chips are disabled (no LLM configured, …), shown with them */
  disabledReason?: string;
  /** opens the KG overview (where a stopped preparation can be run again) */
  onOpenOverview?: () => void;
  /** how many chips (4–6) */
  count?: number;
  /** this KG's own hand-written starters, shown until its generated suggestions are there (the sample KG has some) */
  fallback?: string[];
}

export function SuggestedQuestions({ kgId, kgName, onAsk, canAsk, disabledReason, onOpenOverview, count = 5, fallback = [] }: SuggestedQuestionsProps) {
  const state = useOnboardingProgress(kgId);
  const [loaded, setLoaded] = useState<{ kgId: string; questions: Suggestion[] } | null>(null);
  const [error, setError] = useState<string | null>(null);

  const job = state.job;
  // chips are fetched when the KG's examples first exist and again when its job ends (the final pool is the best)
  const trigger = kgId && job && job.examples > 0 && job.status !== "stale" ? `${kgId}|${isJobActive(job) ? "partial" : job.status}|${job.finishedAt ?? ""}` : null;
  useEffect(() => {
    if (!trigger || !kgId) return;
    const controller = new AbortController();
    setError(null);
    onboardingApi
      .suggestions(kgId, count, controller.signal)
      .then((r) => {
        if (r.kgId === kgId) setLoaded({ kgId, questions: r.questions });
      })
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setError(e instanceof Error ? e.message : String(e));
      });
    return () => controller.abort();
  }, [trigger, kgId, count]);

  // only this KG's questions, and none of a KG whose data changed since
  const generated = loaded && loaded.kgId === kgId && job?.status !== "stale" ? loaded.questions : [];
  const questions = generated.length > 0 ? generated : fallback.map((question, i) => ({ exampleId: `fallback-${i}`, question, shape: "starter" }));

  return (
    <section aria-labelledby="suggested-heading" data-testid="suggested-questions" data-kg={kgId} data-state={state.known ? (job?.status ?? "none") : "loading"} className="flex flex-col gap-2">
      <h2 id="suggested-heading" className="flex items-center gap-1.5 text-xs font-medium uppercase tracking-wide text-muted-foreground">
        <SparklesIcon className="size-3.5" aria-hidden /> Try a question about {kgName ?? "this KG"}
      </h2>
      {questions.length > 0 && (
        <>
          <div className="flex flex-wrap gap-2">
            {questions.map((q) => (
              <button
                key={q.exampleId}
                type="button"
                data-testid={generated.length > 0 ? "suggestion-chip" : "starter-chip"}
                data-shape={q.shape}
                disabled={!canAsk}
                title={!canAsk ? disabledReason : undefined}
                onClick={() => onAsk(q.question)}
                className="max-w-full rounded-full border bg-card px-3 py-1 text-left text-sm hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring disabled:opacity-50"
              >
                {q.question}
              </button>
            ))}
          </div>
          {!canAsk && disabledReason && (
            <p className="text-xs text-muted-foreground" data-testid="chips-disabled-reason">
              {disabledReason}
            </p>
          )}
        </>
      )}
      {generated.length === 0 && <Pending kgName={kgName} state={state} error={error} loaded={loaded?.kgId === kgId} onOpenOverview={onOpenOverview} />}
    </section>
  );
}

function Pending({ kgName, state, error, loaded, onOpenOverview }: { kgName?: string; state: ProgressState; error: string | null; loaded: boolean; onOpenOverview?: () => void }) {
  const { job } = state;
  const problem = error ?? (state.known ? null : state.error);
  if (problem) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="suggestions-status">
        Suggested questions are not available: {problem}
      </p>
    );
  }
  const prepared = job && !isJobActive(job) && job.status !== "stale" && job.examples > 0;
  if (prepared && loaded) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="suggestions-status">
        None of {kgName ?? "this KG"}&apos;s example questions is short enough to suggest: ask your own, or see them in the KG overview.
      </p>
    );
  }
  // prepared, the chips on their way
  if (!state.known || prepared) {
    return (
      <p className="flex items-center gap-2 text-sm text-muted-foreground" data-testid="suggestions-status">
        <Loader2Icon className="size-3.5 animate-spin" aria-hidden /> {state.known ? "Loading the questions…" : `Looking at ${kgName ?? "the KG"}…`}
      </p>
    );
  }
  const active = isJobActive(job);
  const failed = job?.status === "failed";
  const stopped = job && ["failed", "cancelled", "stale"].includes(job.status);
  return (
    <div className="flex flex-col gap-1.5 text-sm" data-testid="suggestions-status" role="status">
      <p className={failed ? "flex items-start gap-1.5 text-destructive" : "flex items-start gap-2 text-muted-foreground"}>
        {failed ? <TriangleAlertIcon className="mt-0.5 size-3.5 shrink-0" aria-hidden /> : active ? <Loader2Icon className="mt-0.5 size-3.5 shrink-0 animate-spin" aria-hidden /> : null}
        <span>
          {job?.status === "done" && job.examples === 0
            ? `${kgName ?? "This KG"} is prepared, but no example question could be built from it: ask your own.`
            : progressSentence(job, kgName, state.message)}
        </span>
      </p>
      {active && job && <Progress value={Math.round(jobFraction(job) * 100)} className="h-1.5 max-w-xs" aria-label={`Preparing ${kgName ?? "the KG"}`} />}
      {(stopped || !job) && onOpenOverview && (
        <button type="button" onClick={onOpenOverview} className="self-start text-sm text-primary underline-offset-2 hover:underline" data-testid="suggestions-open-overview">
          {job ? "Open the KG overview" : "Prepare it for questions built from its own data…"}
        </button>
      )}
    </div>
  );
}
