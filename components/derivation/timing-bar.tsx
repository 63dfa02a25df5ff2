// A stacked bar of time spent per stage, each segment labelled on hover and listed below for screen readers.
import type { Stage } from "@/lib/pipeline/types";
import { STAGE_LABELS } from "@/components/chat/stage-labels";

const COLORS = ["bg-primary", "bg-success", "bg-warning", "bg-destructive/70", "bg-accent-foreground/60", "bg-muted-foreground/60"];

export function TimingBar({ timings }: { timings: { stage: Stage; ms: number }[] }) {
  const total = timings.reduce((s, t) => s + t.ms, 0);
  if (total <= 0) return null;
  return (
    <figure data-testid="timing-bar" className="flex flex-col gap-1">
      <div className="flex h-3 w-full overflow-hidden rounded bg-muted" aria-hidden>
        {timings.map((t, i) => (
          <div
            key={t.stage}
            className={COLORS[i % COLORS.length]}
            style={{ width: `${(t.ms / total) * 100}%` }}
            title={`${STAGE_LABELS[t.stage]}: ${Math.round(t.ms)} ms`}
          />
        ))}
      </div>
      <figcaption className="flex flex-wrap gap-x-3 gap-y-0.5 text-xs text-muted-foreground">
        {timings.map((t, i) => (
          <span key={t.stage} className="inline-flex items-center gap-1">
            <span className={`inline-block size-2 rounded-sm ${COLORS[i % COLORS.length]}`} aria-hidden />
            {STAGE_LABELS[t.stage]} {Math.round(t.ms)} ms
          </span>
        ))}
        <span className="font-medium text-foreground">total {Math.round(total)} ms</span>
      </figcaption>
    </figure>
  );
}
