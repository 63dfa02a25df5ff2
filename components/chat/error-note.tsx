// An error as a person reads it: what happened and what to do (by its stable code), where it happened, and a details
// line with the code and the server's own words (for a bug report; the API carries the same).
import { CircleAlertIcon } from "lucide-react";
import { errorDetails, errorSentence } from "@/lib/error-sentences";
import type { Stage } from "@/lib/pipeline/types";
import { cn } from "@/lib/utils";
import { STAGE_LABELS } from "./stage-labels";

export function ErrorNote({
  error,
  stopped = false,
  className,
  testId = "error-note",
  children,
}: {
  testId?: string;
  error: { code: string; message?: string; stage?: Stage };
  /** stopped by the user: said as such, not as a failure */
  stopped?: boolean;
  className?: string;
  /** actions (Retry, Edit) under the sentences */
  children?: React.ReactNode;
}) {
  const s = stopped ? { what: "Stopped before it finished, as you asked.", todo: "Retry to run it again, or Edit to change the question." } : errorSentence(error.code);
  return (
    <div role="alert" data-testid={testId} data-code={error.code} className={cn("flex items-start gap-2 rounded-md border border-destructive/40 bg-destructive/5 p-2 text-sm", className)}>
      <CircleAlertIcon className="mt-0.5 size-4 shrink-0 text-destructive" aria-hidden />
      <div className="flex min-w-0 flex-col gap-1">
        <p data-testid="error-sentence">
          <strong className="font-medium">{s.what}</strong> {s.todo}
        </p>
        {!stopped && (
          <p className="text-xs break-words text-muted-foreground" data-testid="error-details">
            Details{error.stage ? ` (at ${STAGE_LABELS[error.stage] ?? error.stage})` : ""}: {errorDetails(error)}
          </p>
        )}
        {children}
      </div>
    </div>
  );
}
