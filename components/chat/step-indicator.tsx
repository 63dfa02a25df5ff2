// The live "what is it doing" line of a running turn: current stage, stages done, and a thin progress track.
import { LoaderCircleIcon } from "lucide-react";
import type { DerivationEvent } from "@/lib/pipeline/types";
import { currentStage, STAGE_COUNT, STAGE_LABELS, stagesDone } from "./stage-labels";

export function StepIndicator({ events }: { events: DerivationEvent[] }) {
  const stage = currentStage(events);
  const done = stagesDone(events);
  return (
    <div data-testid="step-indicator" role="status" aria-live="polite" className="flex min-h-10 flex-col justify-center gap-1.5">
      <p className="flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircleIcon className="size-4 animate-spin" aria-hidden />
        {stage ? `${STAGE_LABELS[stage]}…` : "Starting…"}
        <span className="text-xs tabular-nums">({done} steps done)</span>
      </p>
      <div className="h-1 w-48 overflow-hidden rounded bg-muted" aria-hidden>
        <div className="h-full bg-primary transition-[width]" style={{ width: `${Math.min(100, (done / STAGE_COUNT) * 100)}%` }} />
      </div>
    </div>
  );
}
