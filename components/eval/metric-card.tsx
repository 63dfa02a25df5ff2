// A labelled headline number (macro F1, mean time, …) on the evaluation pages.
import { cn } from "@/lib/utils";

export function MetricCard({ label, value, hint, testId, strong }: { label: string; value: string; hint?: string; testId?: string; strong?: boolean }) {
  return (
    <div className={cn("flex flex-col gap-0.5 rounded-lg border bg-card p-3", strong && "border-primary/40")} data-testid={testId}>
      <div className="text-xs text-muted-foreground">{label}</div>
      <div className={cn("font-semibold tabular-nums", strong ? "text-2xl" : "text-lg")} data-testid={testId ? `${testId}-value` : undefined}>
        {value}
      </div>
      {hint && <div className="text-xs text-muted-foreground">{hint}</div>}
    </div>
  );
}
